import { describe, expect, it } from 'vitest';
import {
  UndrivenSignalError,
  defineModule,
  input,
  output,
  type ModuleDefinition,
  type Params,
  type PortTree,
  type Value,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { printDesign } from '../../../hw/ir/print.ts';
import { checkDesign } from '../../../hw/ir/passes/index.ts';
import * as designs from './designs.ts';

/**
 * One test per lowering rule of hw/ir/lower.ts: the design of that rule (designs.ts) lowered with
 * no passes, compared as the whole printed IR (hw/ir/print.ts). The lowered IR and the IR after the
 * default passes must both pass the IR checks (widths, drivers, loops).
 */
function expectLowering<P extends Params, T extends PortTree>(
  definition: ModuleDefinition<P, T>,
  expected: string,
): void {
  const lowered = elaborate(definition, {}, { passes: [] });
  expect(printDesign(lowered)).toBe(expected);
  checkDesign(lowered);
  checkDesign(elaborate(definition));
}

describe('lowering rules, as printed IR', () => {
  it('constants: a literal is a const cell; a literal operand is sized to the other operand', () => {
    expectLowering(
      designs.Constants,
      `design Constants

module Constants definition=Constants
  port input a: 4 = a
  port output five: 4 = five
  port output masked: 4 = masked
  net 0 input a: 4
  cell 3 _n3: 4 = const 0x5
  cell 4 _n4: 4 = const 0xc
  cell 5 _n5: 4 = and a, _n4
  cell 1 output five: 4 = buf _n3
  cell 2 output masked: 4 = buf _n5
`,
    );
  });

  it('wires: a declared wire and a named expression are wire nets driven by a buf; reads use the wire', () => {
    expectLowering(
      designs.Wires,
      `design Wires

module Wires definition=Wires
  port input a: 4 = a
  port input b: 4 = b
  port output o: 4 = o
  net 0 input a: 4
  net 1 input b: 4
  cell 5 _n5: 4 = xor a, b
  cell 6 _n6: 4 = add w, w
  cell 2 output o: 4 = buf sum
  cell 3 wire w: 4 = buf _n5
  cell 4 wire sum: 4 = buf _n6
`,
    );
  });

  it('bitwise operators: and, or, xor, not (cat operands are lowered last part first)', () => {
    expectLowering(
      designs.Bitwise,
      `design Bitwise

module Bitwise definition=Bitwise
  port input a: 4 = a
  port input b: 4 = b
  port output o: 16 = o
  net 0 input a: 4
  net 1 input b: 4
  cell 3 _n3: 4 = not a
  cell 4 _n4: 4 = xor a, b
  cell 5 _n5: 4 = or a, b
  cell 6 _n6: 4 = and a, b
  cell 7 _n7: 16 = cat _n6, _n5, _n4, _n3
  cell 2 output o: 16 = buf _n7
`,
    );
  });

  it('arithmetic: add, sub, neg, the full-width mul, addCarry as zext + add', () => {
    expectLowering(
      designs.Arithmetic,
      `design Arithmetic

module Arithmetic definition=Arithmetic
  port input a: 4 = a
  port input b: 4 = b
  port output sum: 4 = sum
  port output diff: 4 = diff
  port output minus: 4 = minus
  port output product: 8 = product
  port output carry: 5 = carry
  net 0 input a: 4
  net 1 input b: 4
  cell 7 _n7: 4 = add a, b
  cell 8 _n8: 4 = sub a, b
  cell 9 _n9: 4 = neg a
  cell 10 _n10: 8 = mul a, b
  cell 11 _n11: 5 = zext b
  cell 12 _n12: 5 = zext a
  cell 13 _n13: 5 = add _n12, _n11
  cell 2 output sum: 4 = buf _n7
  cell 3 output diff: 4 = buf _n8
  cell 4 output minus: 4 = buf _n9
  cell 5 output product: 8 = buf _n10
  cell 6 output carry: 5 = buf _n13
`,
    );
  });

  it('comparisons: eq, ne, ltu, leu, lts, les; gt and ge swap the operands', () => {
    expectLowering(
      designs.Comparisons,
      `design Comparisons

module Comparisons definition=Comparisons
  port input a: 4 = a
  port input b: 4 = b
  port output o: 8 = o
  net 0 input a: 4
  net 1 input b: 4
  cell 3 _n3: 1 = les a, b
  cell 4 _n4: 1 = lts a, b
  cell 5 _n5: 1 = leu b, a
  cell 6 _n6: 1 = ltu b, a
  cell 7 _n7: 1 = leu a, b
  cell 8 _n8: 1 = ltu a, b
  cell 9 _n9: 1 = ne a, b
  cell 10 _n10: 1 = eq a, b
  cell 11 _n11: 8 = cat _n10, _n9, _n8, _n7, _n6, _n5, _n4, _n3
  cell 2 output o: 8 = buf _n11
`,
    );
  });

  it('reductions: redand, redor, redxor are 1 bit', () => {
    expectLowering(
      designs.Reductions,
      `design Reductions

module Reductions definition=Reductions
  port input a: 4 = a
  port output o: 3 = o
  net 0 input a: 4
  cell 2 _n2: 1 = redxor a
  cell 3 _n3: 1 = redor a
  cell 4 _n4: 1 = redand a
  cell 5 _n5: 3 = cat _n4, _n3, _n2
  cell 1 output o: 3 = buf _n5
`,
    );
  });

  it('shifts by a signal, and by a constant given the width it needs', () => {
    expectLowering(
      designs.Shifts,
      `design Shifts

module Shifts definition=Shifts
  port input a: 8 = a
  port input n: 3 = n
  port output o: 48 = o
  net 0 input a: 8
  net 1 input n: 3
  cell 3 _n3: 1 = const 0x0
  cell 4 _n4: 8 = sra a, _n3
  cell 5 _n5: 1 = const 0x1
  cell 6 _n6: 8 = shr a, _n5
  cell 7 _n7: 3 = const 0x5
  cell 8 _n8: 8 = shl a, _n7
  cell 9 _n9: 8 = sra a, n
  cell 10 _n10: 8 = shr a, n
  cell 11 _n11: 8 = shl a, n
  cell 12 _n12: 48 = cat _n11, _n10, _n9, _n8, _n6, _n4
  cell 2 output o: 48 = buf _n12
`,
    );
  });

  it('mux, and select as an eq + mux chain', () => {
    expectLowering(
      designs.Muxes,
      `design Muxes

module Muxes definition=Muxes
  port input s: 1 = s
  port input i: 2 = i
  port input a: 4 = a
  port input b: 4 = b
  port input c: 4 = c
  port output m: 4 = m
  port output chosen: 4 = chosen
  net 0 input s: 1
  net 1 input i: 2
  net 2 input a: 4
  net 3 input b: 4
  net 4 input c: 4
  cell 7 _n7: 4 = mux s, a, b
  cell 8 _n8: 2 = const 0x1
  cell 9 _n9: 1 = eq i, _n8
  cell 10 _n10: 4 = mux _n9, b, c
  cell 11 _n11: 2 = const 0x0
  cell 12 _n12: 1 = eq i, _n11
  cell 13 _n13: 4 = mux _n12, a, _n10
  cell 5 output m: 4 = buf _n7
  cell 6 output chosen: 4 = buf _n13
`,
    );
  });

  it('slices, bit, msb, trunc, cat, zext, sext; resizing to the same width makes no cell', () => {
    expectLowering(
      designs.Slices,
      `design Slices

module Slices definition=Slices
  port input a: 8 = a
  port output o: 32 = o
  net 0 input a: 8
  cell 2 _n2: 4 = slice a [3:0]
  cell 3 _n3: 7 = sext _n2
  cell 4 _n4: 4 = slice a [3:0]
  cell 5 _n5: 8 = zext _n4
  cell 6 _n6: 3 = slice a [2:0]
  cell 7 _n7: 1 = slice a [7:7]
  cell 8 _n8: 1 = slice a [0:0]
  cell 9 _n9: 4 = slice a [5:2]
  cell 10 _n10: 32 = cat _n9, _n8, _n7, _n6, a, _n5, _n3
  cell 1 output o: 32 = buf _n10
`,
    );
  });

  it('a subexpression used twice is one cell', () => {
    expectLowering(
      designs.Shared,
      `design Shared

module Shared definition=Shared
  port input a: 4 = a
  port input b: 4 = b
  port output x: 4 = x
  port output y: 4 = y
  net 0 input a: 4
  net 1 input b: 4
  cell 4 _n4: 4 = add a, b
  cell 5 _n5: 4 = and _n4, _n4
  cell 2 output x: 4 = buf _n5
  cell 3 output y: 4 = buf _n4
`,
    );
  });

  it('registers with and without a reset value, held (never assigned: D = Q), with an enable (a when)', () => {
    expectLowering(
      designs.Registers,
      `design Registers

module Registers definition=Registers clocked
  port input clk: 1 = clk
  port input reset: 1 = reset
  port input d: 4 = d
  port input en: 1 = en
  port output o: 16 = o
  net 0 input clk: 1
  net 1 input reset: 1
  net 2 input d: 4
  net 3 input en: 1
  net 5 reg plain: 4
  net 6 reg counter: 4
  net 7 reg held: 4
  net 8 reg enabled: 4
  cell 9 _n9: 4 = const 0x1
  cell 10 _n10: 4 = add counter, _n9
  cell 11 _n11: 1 = not en
  cell 12 _n12: 4 = mux en, d, enabled
  cell 13 _n13: 16 = cat plain, counter, held, enabled
  cell 4 output o: 16 = buf _n13
  register plain: 4 <= d
  register counter: 4 <= _n10 reset=0x9
  register held: 4 <= held reset=0x3
  register enabled: 4 <= _n12
`,
    );
  });

  it('when / elsewhen / otherwise: one mux per conditional branch, the otherwise value innermost', () => {
    expectLowering(
      designs.WhenElse,
      `design WhenElse

module WhenElse definition=WhenElse
  port input a: 1 = a
  port input b: 1 = b
  port input x: 4 = x
  port input y: 4 = y
  port input z: 4 = z
  port output o: 4 = o
  net 0 input a: 1
  net 1 input b: 1
  net 2 input x: 4
  net 3 input y: 4
  net 4 input z: 4
  cell 6 _n6: 1 = not a
  cell 7 _n7: 1 = and _n6, b
  cell 8 _n8: 1 = not b
  cell 9 _n9: 1 = and _n6, _n8
  cell 10 _n10: 4 = mux b, y, z
  cell 11 _n11: 4 = mux a, x, _n10
  cell 5 output o: 4 = buf _n11
`,
    );
  });

  it('a when without otherwise falls back to the value assigned before it', () => {
    expectLowering(
      designs.WhenDefault,
      `design WhenDefault

module WhenDefault definition=WhenDefault
  port input a: 1 = a
  port input x: 4 = x
  port input y: 4 = y
  port output o: 4 = o
  net 0 input a: 1
  net 1 input x: 4
  net 2 input y: 4
  cell 5 _n5: 1 = not a
  cell 6 _n6: 4 = mux a, x, y
  cell 3 output o: 4 = buf w
  cell 4 wire w: 4 = buf _n6
`,
    );
  });

  it('nested whens and partial assignment: registers hold where unassigned, the last assignment wins', () => {
    expectLowering(
      designs.WhenNested,
      `design WhenNested

module WhenNested definition=WhenNested clocked
  port input clk: 1 = clk
  port input reset: 1 = reset
  port input a: 1 = a
  port input b: 1 = b
  port input x: 4 = x
  port input y: 4 = y
  port output o: 12 = o
  net 0 input clk: 1
  net 1 input reset: 1
  net 2 input a: 1
  net 3 input b: 1
  net 4 input x: 4
  net 5 input y: 4
  net 7 reg p: 4
  net 8 reg q: 4
  net 9 reg r: 4
  cell 10 _n10: 1 = and a, b
  cell 11 _n11: 1 = not b
  cell 12 _n12: 1 = and a, _n11
  cell 13 _n13: 4 = mux b, x, p
  cell 14 _n14: 4 = mux b, q, y
  cell 15 _n15: 1 = not a
  cell 16 _n16: 4 = mux a, _n13, p
  cell 17 _n17: 4 = mux a, _n14, q
  cell 18 _n18: 4 = mux a, r, y
  cell 19 _n19: 12 = cat p, q, r
  cell 6 output o: 12 = buf _n19
  register p: 4 <= _n16
  register q: 4 <= _n17
  register r: 4 <= _n18
`,
    );
  });

  it('memories: combinational and registered reads, a write port, a write under a when (enable and-ed with the path)', () => {
    expectLowering(
      designs.Memories,
      `design Memories

module Memories definition=Memories clocked
  port input clk: 1 = clk
  port input reset: 1 = reset
  port input addr: 2 = addr
  port input data: 4 = data
  port input we: 1 = we
  port input gate: 1 = gate
  port output word: 4 = word
  port output late: 4 = late
  net 0 input clk: 1
  net 1 input reset: 1
  net 2 input addr: 2
  net 3 input data: 4
  net 4 input we: 1
  net 5 input gate: 1
  net 8 reg mem_rdata: 4
  cell 9 _n9: 1 = const 0x1
  cell 10 _n10: 1 = and gate, _n9
  cell 11 _n11: 2 = const 0x1
  cell 12 _n12: 2 = add addr, _n11
  cell 13 _n13: 4 = not data
  cell 14 _n14: 1 = not gate
  cell 15 _n15: 4 = memread mem[addr]
  cell 16 _n16: 4 = memread mem[addr]
  cell 6 output word: 4 = buf _n15
  cell 7 output late: 4 = buf mem_rdata
  register mem_rdata: 4 <= _n16
  memory mem: 4 x 4
    write mem[addr] <= data when we
    write mem[_n12] <= _n13 when _n10
`,
    );
  });

  it('instances: children lowered first, clk/reset passed to the clocked one, inputs as buf-driven wires', () => {
    expectLowering(
      designs.Instances,
      `design Instances

module Half definition=Half
  port input a: 4 = a
  port input b: 4 = b
  port output s: 4 = s
  net 0 input a: 4
  net 1 input b: 4
  cell 3 _n3: 4 = xor a, b
  cell 2 output s: 4 = buf _n3

module Delay_width_8 definition=Delay clocked
  parameters width=8
  port input clk: 1 = clk
  port input reset: 1 = reset
  port input d: 8 = d
  port output q: 8 = q
  net 0 input clk: 1
  net 1 input reset: 1
  net 2 input d: 8
  net 4 reg r: 8
  cell 3 output q: 8 = buf r
  register r: 8 <= d reset=0x0

module Instances definition=Instances clocked
  port input clk: 1 = clk
  port input reset: 1 = reset
  port input a: 4 = a
  port input b: 4 = b
  port output o: 4 = o
  port output late: 8 = late
  net 0 input clk: 1
  net 1 input reset: 1
  net 2 input a: 4
  net 3 input b: 4
  net 8 wire half_s: 4
  net 10 wire delay_q: 8
  cell 11 _n11: 8 = cat half_s, a
  cell 4 output o: 4 = buf half_s
  cell 5 output late: 8 = buf delay_q
  cell 6 wire half_a: 4 = buf a
  cell 7 wire half_b: 4 = buf b
  cell 9 wire delay_d: 8 = buf _n11
  instance half: Half
    input a <- half_a
    input b <- half_b
    output s -> half_s
  instance delay: Delay_width_8
    input clk <- clk
    input d <- delay_d
    input reset <- reset
    output q -> delay_q
`,
    );
  });

  it('a signal left undriven on some path of a when is refused at the user line', () => {
    const Partial = defineModule({
      name: 'Partial',
      defaults: {},
      ports: () => ({ a: input(1), x: input(4), o: output(4) }),
      build(m, io) {
        m.when(io.a, () => io.o.set(io.x));
      },
    });
    expect(() => elaborate(Partial)).toThrow(UndrivenSignalError);
    expect(() => elaborate(Partial)).toThrow(
      /^tests\/hw\/ir\/lower\.test\.ts:\d+: output 'o' is not driven on every path of the when at line \d+ \(give it a default assignment first\)$/,
    );
  });

  it('a signal of another module cannot be used', () => {
    let stolen: Value | undefined;
    const Other = defineModule({
      name: 'Other',
      defaults: {},
      ports: () => ({ a: input(4), o: output(4) }),
      build(_m, io) {
        stolen = io.a;
        io.o.set(io.a);
      },
    });
    const Thief = defineModule({
      name: 'Thief',
      defaults: {},
      ports: () => ({ o: output(4) }),
      build(_m, io) {
        io.o.set(stolen!);
      },
    });
    elaborate(Other);
    expect(() => elaborate(Thief)).toThrow(/'a' belongs to another module and cannot be used in Thief/);
  });
});
