import { describe, expect, it } from 'vitest';
import { FieldError } from '../../../common/errors.ts';
import { caseSeed, parseShard, shardCases, spanIndices, WHOLE } from '../../../verif/regress/cases.ts';
import { runRegression } from '../../../verif/regress/regression.ts';
import { REGRESS_SUITES } from '../../support/regressSuites.ts';
import { regressionOptions } from './regressOptions.ts';

const cheap = REGRESS_SUITES.filter((suite) => suite.name === 'LaneDetector' || suite.name === 'AdderChain');

describe('sharding', () => {
  it('three shards run exactly the cases of one unsharded run: same count, same case indices', async () => {
    const whole = await runRegression(regressionOptions({ suites: cheap, runs: 20, seed: 42 }));
    const shards = await Promise.all(
      [1, 2, 3].map((index) =>
        runRegression(regressionOptions({ suites: cheap, runs: 20, seed: 42, shard: { index, count: 3 } })),
      ),
    );
    for (const [position, run] of whole.entries()) {
      const parts = shards.map((shard) => shard[position]!);
      expect(parts.map((part) => part.cases)).toEqual([7, 7, 6]);
      const merged = parts.flatMap((part) => spanIndices(part.span)).sort((a, b) => a - b);
      expect(merged).toEqual(spanIndices(run.span));
      expect(merged).toEqual(shardCases(20, WHOLE));
      expect(run.cases).toBe(20);
    }
  });

  it('derives distinct, reproducible case seeds and refuses malformed shards', () => {
    const seeds = Array.from({ length: 1000 }, (_, k) => caseSeed(7, k));
    expect(new Set(seeds).size).toBe(1000);
    expect(caseSeed(7, 3)).toBe(seeds[3]);
    expect(caseSeed(8, 3)).not.toBe(seeds[3]);
    expect(shardCases(7, parseShard('2/3'))).toEqual([1, 4]);
    // The library names its field; the CLI maps the field to --shard (gen/cli/optionFlags.ts).
    for (const bad of ['0/3', '4/3', '1/0', '1-3', '']) {
      expect(() => parseShard(bad)).toThrow(FieldError);
      expect(() => parseShard(bad)).toThrow(/^shard '.*' must be i\/n/);
    }
  });
});
