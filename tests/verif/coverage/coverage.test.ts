/**
 * Coverage of gen regress (verif/regress/coverage/): toggles of a tiny design equal a set worked
 * out by hand on every engine; the three engines give the same coverage of the same stimulus;
 * a bin no case hits is reported missed with its reason; shards merge to the unsharded coverage.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { Counter } from '../../../hw/examples/counter.ts';
import { createEngine } from '../../../engines/index.ts';
import type { EngineName, PortValues } from '../../../engines/engine.ts';
import { defineSuite, once } from '../../../verif/regress/suite.ts';
import { runCases } from '../../../verif/regress/runCases.ts';
import { runRegression } from '../../../verif/regress/regression.ts';
import { CoverageCollector } from '../../../verif/regress/coverage/collect.ts';
import { mergeCoverageFiles, type CoverageFile } from '../../../verif/regress/coverage/data.ts';
import { coverageSummary, goalStatuses } from '../../../verif/regress/coverage/summary.ts';
import { REGRESS_SUITES } from '../../../verif/suites/index.ts';
import { regressionOptions } from '../regress/regressOptions.ts';

/** A cold Verilator build on a busy two-core machine can take minutes; the cache makes reruns fast. */
const BUILD_TIMEOUT_MS = 600_000;
const ENGINES: readonly EngineName[] = ['ts', 'verilator', 'icarus'];

/** Counter (width 2), one fixed case: enable twice, hold, then a synchronous reset. */
const counterSuite = defineSuite({
  name: 'CounterToggles',
  arbitrary: fc.constant(0),
  design: once(() => elaborate(Counter, { width: 2 })),
  vectors: () => ({
    stimulus: [{ enable: 1n }, { enable: 1n }, { enable: 0n }, { enable: 0n, reset: 1n }] as PortValues[],
    expected: [{ count: 0n }, { count: 1n }, { count: 2n }, { count: 2n }],
  }),
  coverage: {
    bins: [
      { signal: 'value', bins: [0, 1, 2, 3] },
      {
        signal: 'count',
        bins: [{ name: 'low', min: 0, max: 1 }, 2],
        when: 'enable',
        why: { '2': 'enable is low then' },
      },
    ],
  },
});

describe('coverage', () => {
  it.each(ENGINES)(
    'toggles of a tiny design on %s equal the set worked out by hand, and its bins count the cycles',
    async (name) => {
      const collector = new CoverageCollector(counterSuite, name);
      const outcomes = await runCases(counterSuite, await createEngine(name), 1, [0], () => {}, collector);
      expect(outcomes[0]!.mismatch).toBeUndefined();
      const coverage = collector.result();
      // Sampled before each edge: value 0, 1, 2, 2; enable 1, 1, 0, 0; reset 0, 0, 0, 1; clk always 0.
      expect(coverage.toggles).toEqual({
        'Counter_width_2.clk': { width: 1, rose: '0x0', fell: '0x0' },
        'Counter_width_2.count': { width: 2, rose: '0x3', fell: '0x1' },
        'Counter_width_2.enable': { width: 1, rose: '0x0', fell: '0x1' },
        'Counter_width_2.reset': { width: 1, rose: '0x1', fell: '0x0' },
        'Counter_width_2.value': { width: 2, rose: '0x3', fell: '0x1' },
      });
      expect(coverage.unobserved).toEqual([]);
      expect(coverage.bins['value']!.bins).toEqual({ '0': 1, '1': 1, '2': 2, '3': 0 });
      expect(coverage.bins['count']!.bins).toEqual({ low: 2, '2': 0 });
      const statuses = goalStatuses(coverage);
      expect(statuses.map((goal) => [goal.goal, goal.reached, goal.bins])).toEqual([
        ['count', 1, 2],
        ['value', 3, 4],
      ]);
      expect(statuses[0]!.missed).toEqual([{ bin: '2', why: 'enable is low then' }]);
      expect(statuses[1]!.missed).toEqual([{ bin: '3' }]);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'ts, Verilator and Icarus give the same coverage of the same cases (LaneDetector, TensorLane)',
    async () => {
      const suites = REGRESS_SUITES.filter((suite) => suite.name === 'LaneDetector' || suite.name === 'TensorLane');
      const runs = await runRegression(
        regressionOptions({ suites, engines: [...ENGINES], runs: 6, seed: 3, coverage: true }),
      );
      for (const suite of suites) {
        const [ts, ...others] = ENGINES.map(
          (engine) => runs.find((run) => run.suite === suite.name && run.engine === engine)!.coverage!,
        );
        expect(Object.keys(ts!.toggles).length).toBeGreaterThan(0);
        for (const other of others) {
          expect(other.unobserved).toEqual([]);
          expect(other.toggles).toEqual(ts!.toggles);
          expect(other.bins).toEqual(ts!.bins);
          expect(other.caseIndices).toEqual(ts!.caseIndices);
        }
      }
    },
    BUILD_TIMEOUT_MS,
  );

  it('a bin no case hits is listed missed, with its reason, in the summary', async () => {
    const collector = new CoverageCollector(counterSuite, 'ts');
    await runCases(counterSuite, await createEngine('ts'), 1, [0], () => {}, collector);
    const file: CoverageFile = {
      format: 'gen-coverage/1',
      seed: 1,
      runs: 1,
      shards: ['1/1'],
      suites: [collector.result()],
    };
    const summary = coverageSummary(file);
    expect(summary).toContain('MISSED CounterToggles on ts, count: 2 (enable is low then)');
    expect(summary).toContain('MISSED CounterToggles on ts, value: 3');
    expect(summary).toMatch(/CounterToggles\s+ts\s+2\/7 28\.6 %\s+—\s+4\/6 66\.7 %/);
  });

  it('the coverage of three shards merges to the coverage of the unsharded run (fixed seed)', async () => {
    const suites = REGRESS_SUITES.filter((suite) => ['LaneDetector', 'AdderChain', 'Fp32Adder'].includes(suite.name));
    const file = async (index: number, count: number): Promise<CoverageFile> => ({
      format: 'gen-coverage/1',
      seed: 42,
      runs: 30,
      shards: [`${index}/${count}`],
      suites: (
        await runRegression(regressionOptions({ suites, runs: 30, seed: 42, shard: { index, count }, coverage: true }))
      ).map((run) => run.coverage!),
    });
    const whole = await file(1, 1);
    const shards = await Promise.all([1, 2, 3].map((index) => file(index, 3)));
    const merged = mergeCoverageFiles(shards.map((shard, index) => ({ name: `shard ${index + 1}`, file: shard })));
    expect(merged.shards).toEqual(['1/3', '2/3', '3/3']);
    expect(merged.suites).toEqual(whole.suites);
    // Not trivially equal: each shard alone reaches less than the whole run.
    expect(shards.map((shard) => JSON.stringify(shard.suites))).not.toContain(JSON.stringify(whole.suites));
    expect(() =>
      mergeCoverageFiles([
        { name: 'a', file: shards[0]! },
        { name: 'b', file: shards[0]! },
      ]),
    ).toThrow(/case 0 is in two shards/);
    expect(() =>
      mergeCoverageFiles([
        { name: 'a', file: whole },
        { name: 'b', file: { ...shards[1]!, seed: 7 } },
      ]),
    ).toThrow(/shards of different regressions/);
  });
});
