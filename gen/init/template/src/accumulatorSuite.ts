import { elaborate } from 'coruscant-hdl/ir';
import { defineSuite, fc, once } from 'coruscant-hdl/regress';
import { Accumulator } from './accumulator.js';
import { accumulatorSums, type AccumulatorInputs } from './accumulatorModel.js';

const WIDTH = 8;
const design = once(() => elaborate(Accumulator, { width: WIDTH }));

const cycle = fc.record({
  reset: fc.integer({ min: 0, max: 15 }).map((draw) => draw === 0), // one cycle in 16
  enable: fc.boolean(),
  value: fc.bigInt({ min: 0n, max: (1n << BigInt(WIDTH)) - 1n }),
});

/** Random streams of up to 64 cycles that start in reset; the RTL's `sum` must equal the model's every cycle. */
const accumulatorSuite = defineSuite<AccumulatorInputs[]>({
  name: 'Accumulator',
  groups: ['project'],
  description: `Accumulator (width ${WIDTH}) against its golden model on random streams`,
  arbitrary: fc
    .array(cycle, { minLength: 1, maxLength: 64 })
    .map((cycles) => [{ reset: true, enable: false, value: 0n }, ...cycles]),
  design: () => design(),
  vectors: (cycles) => ({
    stimulus: cycles.map((c) => ({ reset: c.reset ? 1n : 0n, enable: c.enable ? 1n : 0n, value: c.value })),
    expected: accumulatorSums(WIDTH, cycles).map((sum) => ({ sum })),
  }),
});

/** The suites `gen regress` runs from this file. */
export const suites = [accumulatorSuite];
