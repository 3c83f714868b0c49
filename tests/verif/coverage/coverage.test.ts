/**
 * Coverage of gen regress (verif/regress/coverage/): toggles of a tiny design equal a set worked
 * out by hand on every engine; the three engines give the same coverage of the same stimulus;
 * a bin no case hits is reported missed with its reason; shards merge to the unsharded coverage.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { Counter } from '../../../hw/examples/counter.ts';
import { defineModule, input, output } from '../../../hw/core/index.ts';
import { createEngine } from '../../../engines/index.ts';
import type { EngineName, PortValues } from '../../../hw/contract/engine.ts';
import { defineSuite, once } from '../../../verif/regress/suite.ts';
import { runCases } from '../../../verif/regress/runCases.ts';
import { runRegression } from '../../../verif/regress/regression.ts';
import { CoverageCollector } from '../../../verif/regress/coverage/collect.ts';
import { mergeCoverageFiles, type CoverageFile } from '../../../verif/regress/coverage/data.ts';
import { coverageSummary, goalStatuses } from '../../../verif/regress/coverage/summary.ts';
import { REGRESS_SUITES } from '../../support/regressSuites.ts';
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

/** Two cover points on a 2-bit input: one reached by the case, one no input reaches. */
const Covered = defineModule({
  name: 'Covered',
  defaults: {},
  ports: () => ({ a: input(2), y: output(2) }),
  build(m, io) {
    io.y.set(io.a);
    m.cover(io.a.eq(3), 'three');
    m.cover(io.a.eq(3).and(io.a.eq(0)), 'never');
    m.assert(io.a.ne(2), 'a is never 2');
  },
});
const coveredSuite = defineSuite({
  name: 'Covered',
  arbitrary: fc.constant(0),
  design: once(() => elaborate(Covered)),
  vectors: () => ({
    stimulus: [{ a: 3n }, { a: 1n }, { a: 3n }] as PortValues[],
    expected: [{ y: 3n }, { y: 1n }, { y: 3n }],
  }),
});

describe('coverage', () => {
  it(
    "counts the hits of the design's cover points on ts and lists the unreached one; Icarus counts the same hits",
    async () => {
      const ts = new CoverageCollector(coveredSuite, 'ts');
      await runCases(coveredSuite, await createEngine('ts'), 1, [0], () => {}, ts);
      const coverage = ts.result();
      expect(coverage.covers).toEqual({ never: 0, three: 2 });
      expect(goalStatuses(coverage)).toEqual([
        {
          suite: 'Covered',
          engine: 'ts',
          goal: 'cover points',
          bins: 2,
          reached: 1,
          missed: [{ bin: 'never' }],
        },
      ]);
      const icarus = new CoverageCollector(coveredSuite, 'icarus');
      await runCases(coveredSuite, await createEngine('icarus'), 1, [0], () => {}, icarus);
      expect(icarus.result().covers).toEqual({ never: 0, three: 2 });
      expect(icarus.result().toggles).toEqual(coverage.toggles);
    },
    BUILD_TIMEOUT_MS,
  );

  it.each(ENGINES)(
    'toggles of a tiny design on %s equal the set worked out by hand, and its bins count the cycles',
    async (name) => {
      const collector = new CoverageCollector(counterSuite, name);
      const outcomes = await runCases(counterSuite, await createEngine(name), 1, [0], () => {}, collector);
      expect(outcomes[0]!.mismatch).toBeUndefined();
      const coverage = collector.result();
      // Sampled before each edge: value 0, 1, 2, 2; enable 1, 1, 0, 0; reset 0, 0, 0, 1 (the clock is not a signal here).
      expect(coverage.toggles).toEqual({
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

  it.each(['ts', 'icarus'] as const)(
    'a failing assertion is still a failing case when coverage is collected (%s)',
    async (name) => {
      const failing = defineSuite({
        ...coveredSuite,
        name: 'CoveredFailing',
        vectors: () => ({ stimulus: [{ a: 3n }, { a: 2n }] as PortValues[], expected: [{ y: 3n }, { y: 2n }] }),
      });
      const collector = new CoverageCollector(failing, name);
      const [outcome] = await runCases(failing, await createEngine(name), 1, [0], () => {}, collector);
      expect(outcome!.mismatch?.cycle).toBe(1);
      expect(outcome!.mismatch?.check?.message).toBe('a is never 2');
      expect(collector.result().toggles['Covered.a']).toEqual({ width: 2, rose: '0x0', fell: '0x1' });
    },
    BUILD_TIMEOUT_MS,
  );

  it('a goal on a signal the design does not have is refused in one line naming the suite', async () => {
    const wrong = defineSuite({
      ...counterSuite,
      name: 'WrongGoal',
      coverage: { bins: [{ signal: 'nope', bins: [0] }] },
    });
    await expect(
      runCases(wrong, await createEngine('ts'), 1, [0], () => {}, new CoverageCollector(wrong, 'ts')),
    ).rejects.toThrow(
      "suite WrongGoal: coverage goal on 'nope': no such signal in Counter_width_2 (it has reset, enable, count, value)",
    );
  });

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
    expect(summary).toMatch(/CounterToggles\s+ts\s+2\/6 33\.3 %\s+—\s+4\/6 66\.7 %/);
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
    // Worker threads collect their shares and the parts merge to the same coverage.
    const onWorkers = await runRegression(regressionOptions({ suites, runs: 30, seed: 42, jobs: 2, coverage: true }));
    expect(onWorkers.map((run) => run.coverage)).toEqual(whole.suites);
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
