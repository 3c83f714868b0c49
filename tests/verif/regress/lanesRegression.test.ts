/**
 * A regression's cases run in lanes fail as they fail alone: the same cases, with the same
 * message, as when each case runs alone on one lane; and a regression saves the first, shrunk,
 * with its case and its waveform.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runRegression } from '../../../verif/regress/regression.ts';
import { checkCase, drawCase, runCases } from '../../../verif/regress/runCases.ts';
import { caseSeed } from '../../../verif/regress/cases.ts';
import { describeMismatch } from '../../../verif/regress/compare.ts';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import { suites } from './fixtures/plantedBug.ts';
import { regressionOptions } from './regressOptions.ts';

const SEED = 3;
const RUNS = 40;

describe('a regression in lanes', () => {
  it('fails exactly the cases that fail alone, each with its own message, case and VCD', async () => {
    const suite = suites[0]!;
    const [run] = await runRegression(
      regressionOptions({ suites: [suite], runs: RUNS, seed: SEED, maxSavedFailures: 1, shrinkTimeMs: 2_000 }),
    );
    const alone = new TsEngine({ lanes: 1 });
    const expected: { index: number; message: string }[] = [];
    for (let index = 0; index < RUNS; index++) {
      const mismatch = await checkCase(suite, alone, drawCase(suite, caseSeed(SEED, index)));
      if (mismatch) expected.push({ index, message: describeMismatch(mismatch) });
    }
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(RUNS);
    expect(run!.failures.map((failure) => failure.caseIndex)).toEqual(expected.map((each) => each.index));
    run!.failures.forEach((failure, position) => expect(failure.message).toContain(expected[position]!.message));
    const inLanes = await runCases(
      suite,
      new TsEngine({ lanes: 8 }),
      SEED,
      Array.from({ length: RUNS }, (_, index) => index),
    );
    expect(
      inLanes.flatMap((outcome) =>
        outcome.mismatch ? [{ index: outcome.index, message: describeMismatch(outcome.mismatch) }] : [],
      ),
    ).toEqual(expected);
    const saved = run!.failures[0]!.folder!;
    const caseJson = JSON.parse(readFileSync(join(saved, 'case.json'), 'utf8')) as {
      caseIndex: number;
      caseSeed: number;
    };
    expect(caseJson).toMatchObject({ caseIndex: expected[0]!.index, caseSeed: caseSeed(SEED, expected[0]!.index) });
    expect(existsSync(join(saved, 'wave.vcd'))).toBe(true);
  });
});
