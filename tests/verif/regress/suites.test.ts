/**
 * Every regression suite, a few cases each, on the in-process simulator, Icarus and Verilator:
 * the RTL equals the golden models. Verilator builds are cached under build/verilator (a cold
 * cache costs ~20 s per block, once). Heavy suites (the 32-lane MmaUnit bench; the random-design
 * fuzz, one build per case) run one case in process, and on the external engines only with
 * REGRESS_HEAVY=1 (their cold Verilator builds take minutes).
 * Replay with FC_SEED=<seed>.
 */
import { describe, expect, it } from 'vitest';
import { runRegression } from '../../../verif/regress/regression.ts';
import { REGRESS_SUITES } from '../../support/regressSuites.ts';
import type { EngineName } from '../../../hw/contract/engine.ts';
import type { RegressSuite } from '../../../verif/regress/suite.ts';
import { fastCheckSeed } from '../../support/seed.ts';
import { regressionOptions } from './regressOptions.ts';

describe('every suite on every engine', () => {
  it("lists the framework's example suites, then the showcase's, each bottom up", () => {
    expect(REGRESS_SUITES.map((suite) => suite.name)).toEqual([
      'StreamFifo_depth1',
      'StreamFifo_depth3',
      'StreamFifo_depth4',
      'StreamFifo_depth5',
      'SkidBuffer',
      'RoundRobinArbiter',
      'StreamFork',
      'StreamJoin',
      'StreamFifoChain',
      'SerialTransmitter',
      'Crc8Stream',
      'MaskedRamRom',
      'Fuzz',
      'Fp16Multiplier',
      'Fp32Adder',
      'DotProduct4',
      'TensorLane',
      'LaneDetector',
      'RegisterIndexEmitter',
      'AdderChain',
      'DensePointerIncrementer',
      'BitmapDecoder',
      'MmaUnit',
    ]);
  });

  const heavy = (suite: RegressSuite): boolean => suite.heavy === true;
  it.each<EngineName>(['ts', 'icarus', 'verilator'])(
    '%s: RTL = golden on a few cases of every suite',
    async (engine) => {
      const seed = fastCheckSeed(`regress suites on ${engine}`);
      const light = await runRegression(
        regressionOptions({
          suites: REGRESS_SUITES.filter((suite) => !heavy(suite)),
          engines: [engine],
          runs: 3,
          seed,
        }),
      );
      const runHeavy = engine === 'ts' || process.env['REGRESS_HEAVY'] !== undefined;
      const heavyRuns = runHeavy
        ? await runRegression(
            regressionOptions({ suites: REGRESS_SUITES.filter(heavy), engines: [engine], runs: 1, seed }),
          )
        : [];
      // The light suites run first, then the heavy ones, each in the project's order.
      const expected = [
        ...REGRESS_SUITES.filter((suite) => !heavy(suite)),
        ...(runHeavy ? REGRESS_SUITES.filter(heavy) : []),
      ].map((suite) => [suite.name, heavy(suite) ? 1 : 3, []]);
      expect(
        [...light, ...heavyRuns].map((run) => [run.suite, run.cases, run.failures.map((failure) => failure.message)]),
      ).toEqual(expected);
    },
    900_000,
  );
});
