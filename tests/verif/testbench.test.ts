import { describe, expect, it } from 'vitest';
import { defineModule, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { Testbench, ExpectationError } from '../../verif/testbench.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';

/** One testbench, three engines: the same pokes, steps and expectations. */
function counterBench(wrongAtCycle?: number): Testbench {
  const bench = new Testbench(elaborate(Counter, { width: 4 }));
  bench.reset().poke('enable', 1);
  for (let cycle = 0; cycle < 20; cycle++) {
    bench.expect('count', cycle === wrongAtCycle ? (cycle + 1) % 16 : cycle % 16);
    bench.step();
  }
  return bench.poke('enable', 0).expect('count', 20 % 16);
}

describe('Testbench over the three engines', () => {
  const engines = [new TsEngine(), new VerilatorEngine(), new IcarusEngine()];
  it.each(engines.map((engine) => [engine.name, engine] as const))(
    '%s runs the counter bench with all expectations met',
    async (_name, engine) => {
      await expect(counterBench().run(engine)).resolves.toHaveLength(22);
    },
  );

  it('reports a mismatch with cycle, signal, expected and actual', async () => {
    const failure = await counterBench(5)
      .run(new TsEngine())
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExpectationError);
    expect((failure as Error).message).toContain('cycle 6: count expected 0x6, got 0x5');
  });

  it('refuses unknown signals and values that do not fit', () => {
    const bench = new Testbench(elaborate(Counter, { width: 4 }));
    // tsc refuses the misspelled name; the run-time check stays behind it for untyped designs.
    // @ts-expect-error -- 'enabel' is not an input of Counter
    expect(() => bench.poke('enabel', 1)).toThrow(/no input 'enabel'/);
    expect(() => bench.expect('count', 16)).toThrow(/does not fit the 4-bit output 'count'/);
  });
});

/** Two counters, one in the default domain and one in a named one: a reset must clear both. */
const TwoResets = defineModule({
  name: 'TwoResets',
  defaults: {},
  ports: () => ({ a: output(4), b: output(4) }),
  build(m, io) {
    const other = m.domain('other');
    const a = m.reg('a_count', 4, { reset: 0 });
    const b = m.withDomain(other, () => m.reg('b_count', 4, { reset: 0 }));
    a.set(a.add(1));
    b.set(b.add(1));
    io.a.set(a);
    io.b.set(b);
  },
});

describe('Testbench.reset on a design with several clock domains', () => {
  it("holds every domain's reset, batch and reactive", async () => {
    const design = elaborate(TwoResets);
    const batch = new Testbench(design).step(3).expect('b', 3).reset().expect('a', 0).expect('b', 0);
    await expect(batch.run(new TsEngine())).resolves.toHaveLength(5);
    const live = await Testbench.open(design, new TsEngine());
    await live.step(3);
    await live.reset();
    await live.expect('a', 0);
    await live.expect('b', 0);
    await live.close();
  });
});
