/**
 * Every regression suite, a few cases each, on the in-process simulator, Icarus and Verilator:
 * the RTL equals the golden models. Verilator builds are cached under build/verilator (a cold
 * cache costs ~20 s per block, once). Replay with FC_SEED=<seed>.
 */
import { describe, expect, it } from 'vitest';
import { runRegression } from '../../../verif/regress/regression.ts';
import { REGRESS_SUITES } from '../../../verif/regress/suites/index.ts';
import type { EngineName } from '../../../verif/engines/engine.ts';
import { fastCheckSeed } from '../../support/seed.ts';
import { regressionOptions } from './regressOptions.ts';

describe('every suite on every engine', () => {
  it('has one suite per block of the FP datapath and the decoder, bottom up', () => {
    expect(REGRESS_SUITES.map((suite) => suite.name)).toEqual([
      'Fp16Multiplier', 'Fp32Adder', 'DotProduct4', 'TensorLane', 'LaneDetector', 'RegisterIndexEmitter', 'AdderChain', 'DensePointerIncrementer', 'BitmapDecoder',
    ]);
  });

  it.each<EngineName>(['ts', 'icarus', 'verilator'])('%s: RTL = golden on a few cases of every suite', async (engine) => {
    const seed = fastCheckSeed(`regress suites on ${engine}`);
    const results = await runRegression(regressionOptions({ engines: [engine], runs: 3, seed }));
    expect(results.map((run) => [run.suite, run.cases, run.failures.map((failure) => failure.message)])).toEqual(REGRESS_SUITES.map((suite) => [suite.name, 3, []]));
  }, 600_000);
});
