import { describe, expect, it } from 'vitest';
import { elaborate } from 'coruscant-hdl/ir';
import { availableEngines, createEngine, inputFrames } from 'coruscant-hdl/engines';
import { Testbench } from 'coruscant-hdl/sim';
import { Accumulator } from '../src/accumulator.js';
import { accumulatorSums, type AccumulatorInputs } from '../src/accumulatorModel.js';

const WIDTH = 8;
const design = elaborate(Accumulator, { width: WIDTH });

/** A fixed stream that wraps the sum around and resets it in the middle. */
const cycles: AccumulatorInputs[] = [
  { reset: true, enable: false, value: 0n },
  ...[200n, 100n, 7n, 0n, 255n].map((value) => ({ reset: false, enable: true, value })),
  { reset: false, enable: false, value: 99n },
  { reset: true, enable: true, value: 5n },
  ...[1n, 2n, 3n].map((value) => ({ reset: false, enable: true, value })),
  { reset: false, enable: false, value: 0n },
];

// The in-process simulator always; Verilator and Icarus when they are installed.
describe.each(availableEngines().available)('Accumulator on %s', (engineName) => {
  it('matches the golden model cycle by cycle', async () => {
    const sums = accumulatorSums(WIDTH, cycles);
    const bench = new Testbench(design);
    sums.forEach((sum, index) => {
      const cycle = cycles[index]!;
      bench
        .poke('reset', cycle.reset ? 1 : 0)
        .poke('enable', cycle.enable ? 1 : 0)
        .poke('value', cycle.value);
      bench.expect('sum', sum);
      bench.step();
    });
    const outputs = await bench.run(await createEngine(engineName));
    expect(outputs.slice(0, sums.length).map((cycle) => cycle.sum)).toEqual(sums);
  });

  it('runs a long random stream as typed frames (the fast path for long runs)', async () => {
    // A seeded stream of 20,000 cycles: no object per cycle reaches the engine, and the outputs
    // are read from the run's frames.
    let seed = 12345;
    const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const long: AccumulatorInputs[] = Array.from({ length: 20_000 }, () => ({
      reset: random() < 0.01,
      enable: random() < 0.8,
      value: BigInt(Math.floor(random() * 256)),
    }));
    const frames = inputFrames(
      design,
      long.map((cycle) => ({ reset: cycle.reset ? 1n : 0n, enable: cycle.enable ? 1n : 0n, value: cycle.value })),
    );
    const [run] = await (await createEngine(engineName)).runMany(design, [frames]);
    const sums = accumulatorSums(WIDTH, long);
    expect(sums.map((_, cycle) => run!.frames.value(cycle, 'sum'))).toEqual(sums);
  });
});
