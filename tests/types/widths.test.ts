/**
 * What tsc refuses before anything runs. Each `@ts-expect-error` line below is a mistake that
 * compiled before widths and port names were in the types; `make typecheck` fails if one of them
 * compiles again (an unused directive is an error). The `expectTypeOf` lines pin result widths
 * the types compute. `typeErrors.test.ts` checks what tsc says about each mistake.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { cat, constant, defineModule, input, mux, output, type Value } from '../../hw/core/index.ts';
import { flip, bundle } from '../../hw/core/bundle.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { inputFrames } from '../../engines/designFrames.ts';
import { Testbench } from '../../verif/testbench.ts';
import { defineSuite } from '../../verif/regress/suite.ts';
import fc from 'fast-check';

/** Literal widths everywhere: what a designer writes for a fixed datapath. */
const Mixer = defineModule({
  name: 'Mixer',
  defaults: {},
  ports: () => ({ a8: input(8), b16: input(16), y8: output(8), y24: output(24), in_valid: input(1) }),
  build: (m, io) => {
    // @ts-expect-error -- 8-bit plus 16-bit
    io.a8.add(io.b16);
    // @ts-expect-error -- a 16-bit value driven onto an 8-bit output
    io.y8.set(io.b16);
    // @ts-expect-error -- comparisons need equal widths too
    io.a8.eq(io.b16);
    // @ts-expect-error -- mux arms of different widths
    mux(io.in_valid, io.a8, io.b16);
    // @ts-expect-error -- a computed result keeps its width: 24 bits onto an 8-bit output
    io.y8.set(cat(io.a8, io.b16));
    io.y8.set(io.a8.add(1).xor(io.b16.bits(15, 8)));
    io.y24.set(cat(io.b16, io.a8));
    m.named('unused', mux(io.in_valid, io.a8, 0));
  },
});

/** A width that is a run-time parameter: no check in the types, elaboration checks it. */
const Parameterized = defineModule({
  name: 'Parameterized',
  defaults: { width: 8 },
  ports: (p) => ({ a: input(p.width), b: input(16), y: output(p.width) }),
  build: (_m, io) => {
    io.y.set(io.a.add(io.a));
  },
});

describe('widths in the types', () => {
  it('computes result widths of slices, concatenations, products and carries', () => {
    const a8 = constant(1, 8);
    const b16 = constant(2, 16);
    expectTypeOf(a8.add(3)).toEqualTypeOf<Value<8>>();
    expectTypeOf(a8.eq(a8)).toEqualTypeOf<Value<1>>();
    expectTypeOf(cat(a8, b16)).toEqualTypeOf<Value<24>>();
    expectTypeOf(cat(a8, b16, a8.bit(0))).toEqualTypeOf<Value<25>>();
    expectTypeOf(b16.bits(15, 8)).toEqualTypeOf<Value<8>>();
    expectTypeOf(a8.mul(b16)).toEqualTypeOf<Value<24>>();
    expectTypeOf(a8.addCarry(a8)).toEqualTypeOf<Value<9>>();
    expectTypeOf(a8.zext(32)).toEqualTypeOf<Value<32>>();
    expectTypeOf(constant(0, 1000).bits(999, 0)).toEqualTypeOf<Value<1000>>();
    expectTypeOf(cat(constant(0, 1024), constant(0, 1024))).toEqualTypeOf<Value<2048>>();
    // A run-time width stays a number, and an operand of any width is accepted by the types.
    const wide: Value = constant(0, 16);
    expectTypeOf(wide.add(b16)).toEqualTypeOf<Value<number>>();
    expectTypeOf(a8.zext(16).add(wide)).toEqualTypeOf<Value<16>>();
    expectTypeOf(mux(constant(0, 1), a8, 5)).toEqualTypeOf<Value<8>>();
  });

  it('keeps the run-time check behind the types', () => {
    expect(() => elaborate(Parameterized, { width: 8 })).not.toThrow();
    expect(() => elaborate(Mixer)).toThrow(/'add' needs operands of equal width, got 8 and 16 bits/);
  });
});

describe('port names in the types', () => {
  const design = elaborate(Parameterized);

  it('lets a testbench, frames and a suite name only the design ports', () => {
    const bench = new Testbench(design);
    bench.poke('a', 1).poke('b', 0).expect('y', 2);
    // @ts-expect-error -- no input 'c'
    expect(() => bench.poke('c', 1)).toThrow(/no input 'c'/);
    // @ts-expect-error -- 'y' is an output: it is expected, not poked
    expect(() => bench.poke('y', 1)).toThrow(/no input 'y'/);
    // @ts-expect-error -- 'a' is an input: it is poked, not expected
    expect(() => bench.expect('a', 1)).toThrow(/no output 'a'/);
    expect(inputFrames(design, [{ a: 1n, b: 2n }]).cycles).toBe(1);
    // @ts-expect-error -- a misspelled input in a frame row
    expect(() => inputFrames(design, [{ aa: 1n }])).toThrow();
    defineSuite({
      name: 'typed',
      arbitrary: fc.nat(255),
      design: () => design,
      // @ts-expect-error -- a stimulus row naming an output
      vectors: (n) => ({ stimulus: [{ y: BigInt(n) }], expected: [{ y: BigInt(n) }] }),
    });
  });

  it('turns directions round with flip', () => {
    const stream = bundle({ valid: output(1), data: output(8), ready: input(1) });
    const Sink = defineModule({
      name: 'Sink',
      defaults: {},
      ports: () => ({ in: flip(stream), count: output(8) }),
      build: (m, io) => {
        io.in.ready.set(1);
        const count = m.reg('countReg', 8, { reset: 0 });
        m.when(io.in.valid, () => count.set(count.add(1)));
        io.count.set(count);
      },
    });
    const bench = new Testbench(elaborate(Sink));
    bench.poke('in_valid', 1).poke('in_data', 3).expect('in_ready', 1).expect('count', 0);
    // @ts-expect-error -- in_ready flows back out of the sink
    expect(() => bench.poke('in_ready', 1)).toThrow(/no input 'in_ready'/);
  });
});
