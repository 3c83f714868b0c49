import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WHOLE } from '../../../verif/regress/cases.ts';
import type { RegressionOptions } from '../../../verif/regress/regression.ts';
import { REGRESS_SUITES } from '../../support/regressSuites.ts';

/** Failure folders of the tests' regressions (none when they pass), removed when the test process ends. */
const out = mkdtempSync(join(tmpdir(), 'regress-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

/** Options of a quiet regression (in-process engine, 3 cases, failures under a temporary folder); tests override what they exercise. */
export function regressionOptions(overrides: Partial<RegressionOptions>): RegressionOptions {
  return {
    suites: REGRESS_SUITES,
    engines: ['ts'],
    runs: 3,
    seed: 1,
    shard: WHOLE,
    jobs: 1,
    out,
    shrinkTimeMs: 5_000,
    maxSavedFailures: 1,
    load: [],
    replayCommand: (suite, engine, caseIndex, path) => `regress ${suite} ${engine} ${caseIndex} ${path ?? ''}`,
    ...overrides,
  };
}
