/** Without --jobs a regression takes a worker per CASES_PER_WORKER cases of a suite, up to the machine's cap. */
import { describe, expect, it } from 'vitest';
import { autoJobs, CASES_PER_WORKER, jobsCap } from '../../../verif/regress/workerPool.ts';

describe('autoJobs', () => {
  it('stays in this thread for a short run, and takes every core the memory allows for a long one', () => {
    expect(autoJobs(0)).toBe(1);
    expect(autoJobs(CASES_PER_WORKER - 1)).toBe(1);
    expect(autoJobs(2 * CASES_PER_WORKER)).toBe(Math.min(2, jobsCap().jobs));
    expect(autoJobs(1000 * CASES_PER_WORKER)).toBe(jobsCap().jobs);
  });
});
