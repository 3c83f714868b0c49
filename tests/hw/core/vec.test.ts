/**
 * Vec: elements at constant indices (checked against the length), and at hardware indices read
 * through a multiplexer and written through a decoder — registers and bundles alike — on every
 * engine, against a TypeScript array model, with Verilog that Verilator -Wall and Yosys accept.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import fc from 'fast-check';
import {
  defineModule,
  input,
  output,
  regVec,
  vecOf,
  wireVec,
  regs,
  bundle,
  type Signal,
  type Vec,
} from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { createEngine } from '../../../engines/index.ts';
import type { Engine, PortValues } from '../../../hw/contract/engine.ts';
import { runLockstep } from '../../../engines/lockstep.ts';
import { checkWithYosys, lintWithVerilator } from '../../../tools/lint.ts';
import { fastCheckSeed } from '../../support/seed.ts';

const DEPTH = 5;

/** Five 8-bit registers and five {tag, count} bundles, written and read at hardware indices. */
const Table = defineModule({
  name: 'VecTable',
  defaults: {},
  ports: () => ({
    we: input(1),
    waddr: input(3),
    wdata: input(8),
    raddr: input(3),
    rdata: output(8),
    bump: input(1),
    tag: output(4),
    count: output(4),
    first: output(8),
  }),
  build: (m, io) => {
    const table = regVec(m, 'table', DEPTH, 8, { reset: 0 });
    m.when(io.we, () => table.at(io.waddr).set(io.wdata));
    io.rdata.set(table.at(io.raddr));
    io.first.set(table.at(0));

    const entry = bundle({ tag: output(4), count: output(4) });
    const slots = vecOf(
      m,
      Array.from({ length: DEPTH }, (_, index) => regs(m, `slot_${index}`, entry, { reset: 0 })),
    );
    const selected = slots.at(io.raddr);
    m.when(io.bump, () => {
      selected.count.set(selected.count.add(1));
      selected.tag.set(io.wdata.bits(3, 0));
    });
    io.tag.set(selected.tag);
    io.count.set(selected.count);
  },
});

interface Cycle {
  readonly we: number;
  readonly waddr: number;
  readonly wdata: number;
  readonly raddr: number;
  readonly bump: number;
}

/** What the design computes, cycle by cycle, with plain arrays (an index past the end reads the last element). */
function tableModel(cycles: readonly Cycle[]): PortValues[] {
  const table = new Array<number>(DEPTH).fill(0);
  const slots = Array.from({ length: DEPTH }, () => ({ tag: 0, count: 0 }));
  return cycles.map((cycle) => {
    const read = Math.min(cycle.raddr, DEPTH - 1);
    const outputs = {
      rdata: BigInt(table[read]!),
      first: BigInt(table[0]!),
      tag: BigInt(slots[read]!.tag),
      count: BigInt(slots[read]!.count),
    };
    if (cycle.we && cycle.waddr < DEPTH) table[cycle.waddr] = cycle.wdata;
    if (cycle.bump && cycle.raddr < DEPTH)
      slots[cycle.raddr] = { tag: cycle.wdata & 15, count: (slots[cycle.raddr]!.count + 1) & 15 };
    return outputs;
  });
}

const cycleArbitrary = fc.record({
  we: fc.integer({ min: 0, max: 1 }),
  waddr: fc.integer({ min: 0, max: 7 }),
  wdata: fc.integer({ min: 0, max: 255 }),
  raddr: fc.integer({ min: 0, max: 7 }),
  bump: fc.integer({ min: 0, max: 1 }),
});

describe('Vec', () => {
  it('types its length and elements, and refuses a constant index outside it at the line', () => {
    const Probe = defineModule({
      name: 'VecProbe',
      defaults: {},
      ports: () => ({ y: output(8) }),
      build: (m, io) => {
        const wires = wireVec(m, 'w', 3, 8);
        expectTypeOf(wires).toEqualTypeOf<Vec<Signal<8>, 3>>();
        expectTypeOf(wires.length).toEqualTypeOf<3>();
        for (const wire of wires) wire.set(7);
        io.y.set(wires.at(3));
      },
    });
    expect(() => elaborate(Probe)).toThrow(/vec\.test\.ts:\d+: index 3 is outside a Vec of 3 elements/);
  });

  it('reads and writes at hardware indices identically on ts, Icarus and Verilator, as the array model does', async () => {
    const design = elaborate(Table);
    const files = emitVerilog(design);
    expect(await lintWithVerilator(files, design.top)).toEqual([]);
    expect(await checkWithYosys(files, design.top, { system: true })).toEqual([]);
    const engines: Engine[] = await Promise.all(
      (['ts', 'icarus', 'verilator'] as const).map((name) => createEngine(name)),
    );
    const seed = fastCheckSeed('Vec at hardware indices');
    await fc.assert(
      fc.asyncProperty(fc.array(cycleArbitrary, { minLength: 1, maxLength: 40 }), async (cycles) => {
        const stimulus = cycles.map((cycle) => ({
          reset: 0n,
          we: BigInt(cycle.we),
          waddr: BigInt(cycle.waddr),
          wdata: BigInt(cycle.wdata),
          raddr: BigInt(cycle.raddr),
          bump: BigInt(cycle.bump),
        }));
        const result = await runLockstep(engines, design, stimulus);
        expect(result.difference).toBeUndefined();
        expect(result.runs['ts']!.outputs).toEqual(tableModel(cycles));
      }),
      { seed, numRuns: 10 },
    );
  }, 300_000);
});
