import { FieldError, UserError } from '../../common/errors.ts';
import type { Shard } from './cases.ts';

/**
 * How an array-job scheduler tells a task its place: the variable holding its index, whether that
 * index counts from 0 or from the array's first index, and where the number of tasks comes from.
 */
interface ArrayScheduler {
  readonly name: string;
  readonly index: string;
  /** The variable of the array's first index (the index is relative to it), else the fixed base. */
  readonly first: string | number;
  /** The variable of the array's step between indices (default 1). */
  readonly step?: string;
  /** The variable of the number of tasks; absent where it must be given (`--shard-count`). */
  readonly count?: string;
  /** The variable of the last index, a count when the array starts at `first` with its step. */
  readonly last?: string;
}

/** The schedulers `--shard-from-env` knows, in the order they are looked for. */
export const ARRAY_SCHEDULERS: readonly ArrayScheduler[] = [
  // sbatch --array=1-8 (or 0-7, or 1-15:2): ID, MIN, STEP and COUNT of the array.
  {
    name: 'Slurm',
    index: 'SLURM_ARRAY_TASK_ID',
    first: 'SLURM_ARRAY_TASK_MIN',
    step: 'SLURM_ARRAY_TASK_STEP',
    count: 'SLURM_ARRAY_TASK_COUNT',
  },
  // A Kubernetes Indexed Job: JOB_COMPLETION_INDEX from 0; the count is the Job's `completions`.
  { name: 'Kubernetes', index: 'JOB_COMPLETION_INDEX', first: 0 },
  // bsub -J "name[1-8]": LSB_JOBINDEX from 1; LSB_JOBINDEX_END and _STEP describe the array.
  { name: 'LSF', index: 'LSB_JOBINDEX', first: 1, step: 'LSB_JOBINDEX_STEP', last: 'LSB_JOBINDEX_END' },
];

type Environment = Readonly<Record<string, string | undefined>>;

/** A variable's whole number, or a one-line error naming it. */
function wholeNumberOf(env: Environment, name: string): number {
  const text = env[name] ?? '';
  if (!/^\d+$/.test(text.trim())) throw new FieldError('shardFromEnv', `${name}='${text}' is not a whole number`);
  return Number(text);
}

/**
 * The shard of this array task, from the scheduler's variables (`--shard-from-env`), with the
 * scheduler that set them. `count` (`--shard-count`) gives or overrides the number of tasks, which
 * a Kubernetes Indexed Job does not put in the environment.
 */
export function shardFromEnvironment(
  env: Environment,
  count?: number,
): { readonly shard: Shard; readonly scheduler: string } {
  const scheduler = ARRAY_SCHEDULERS.find((candidate) => env[candidate.index] !== undefined);
  if (!scheduler)
    throw new UserError(
      `--shard-from-env: none of ${ARRAY_SCHEDULERS.map((candidate) => candidate.index).join(', ')} is set (not an array task?)`,
    );
  const first = typeof scheduler.first === 'number' ? scheduler.first : wholeNumberOf(env, scheduler.first);
  const step =
    scheduler.step !== undefined && env[scheduler.step] !== undefined ? wholeNumberOf(env, scheduler.step) : 1;
  const offset = wholeNumberOf(env, scheduler.index) - first;
  if (offset < 0 || step < 1 || offset % step !== 0)
    throw new UserError(
      `--shard-from-env: ${scheduler.index}=${env[scheduler.index]} is not an index of the array (first ${first}, step ${step})`,
    );
  const total =
    count ??
    (scheduler.count !== undefined && env[scheduler.count] !== undefined
      ? wholeNumberOf(env, scheduler.count)
      : scheduler.last !== undefined && env[scheduler.last] !== undefined
        ? Math.floor((wholeNumberOf(env, scheduler.last) - first) / step) + 1
        : undefined);
  if (total === undefined)
    throw new UserError(
      `--shard-from-env: ${scheduler.name} does not say how many tasks there are; give --shard-count N`,
    );
  const index = offset / step + 1;
  if (total < 1 || index > total)
    throw new FieldError('shardFromEnv', `${scheduler.name} task ${index} of ${total} is out of range`);
  return { shard: { index, count: total }, scheduler: scheduler.name };
}
