import { describe, expect, it } from 'vitest';
import { UserError } from '../../../common/errors.ts';
import { shardFromEnvironment } from '../../../verif/regress/shardFromEnv.ts';

describe('--shard-from-env', () => {
  it('reads a Slurm array task (any first index and step), a Kubernetes Indexed Job and an LSF array', () => {
    const slurm = { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_COUNT: '8' };
    expect(shardFromEnvironment(slurm)).toEqual({ shard: { index: 3, count: 8 }, scheduler: 'Slurm' });
    expect(shardFromEnvironment({ ...slurm, SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0' }).shard).toEqual({
      index: 1,
      count: 8,
    });
    expect(
      shardFromEnvironment({
        SLURM_ARRAY_TASK_ID: '5',
        SLURM_ARRAY_TASK_MIN: '1',
        SLURM_ARRAY_TASK_STEP: '2',
        SLURM_ARRAY_TASK_COUNT: '4',
      }).shard,
    ).toEqual({ index: 3, count: 4 });
    expect(shardFromEnvironment({ JOB_COMPLETION_INDEX: '0' }, 5)).toEqual({
      shard: { index: 1, count: 5 },
      scheduler: 'Kubernetes',
    });
    expect(shardFromEnvironment({ LSB_JOBINDEX: '4', LSB_JOBINDEX_END: '10' }).shard).toEqual({ index: 4, count: 10 });
    expect(shardFromEnvironment({ LSB_JOBINDEX: '4' }, 6).shard).toEqual({ index: 4, count: 6 });
  });

  it('refuses, in one line naming the variable, what does not make a shard', () => {
    const cases: [Record<string, string>, number | undefined, RegExp][] = [
      [{}, undefined, /none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, LSB_JOBINDEX is set/],
      [
        { JOB_COMPLETION_INDEX: '2' },
        undefined,
        /Kubernetes does not say how many tasks there are; give --shard-count/,
      ],
      [{ JOB_COMPLETION_INDEX: '5' }, 5, /task 6 of 5 is out of range/],
      [{ JOB_COMPLETION_INDEX: 'x' }, 5, /JOB_COMPLETION_INDEX='x' is not a whole number/],
      [
        { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '4' },
        undefined,
        /SLURM_ARRAY_TASK_MIN='' is not a whole number/,
      ],
      [{ LSB_JOBINDEX: '0', LSB_JOBINDEX_END: '4' }, undefined, /LSB_JOBINDEX=0 is not an index of the array/],
    ];
    for (const [env, count, message] of cases) {
      expect(() => shardFromEnvironment(env, count)).toThrow(UserError);
      expect(() => shardFromEnvironment(env, count)).toThrow(message);
    }
  });
});
