import type { Job, Queue } from 'bullmq';
import { UserError } from '../../../common/errors.ts';
import type { FarmShard, FarmShardResult } from './farmJob.ts';
import type { FarmConnection } from './redisUrl.ts';

/** One enqueued shard and where its result goes. */
export interface PendingShard {
  readonly id: string;
  readonly run: number;
  progress: number;
  result?: FarmShardResult;
}

/** `work`, or a rejection after `milliseconds` (a command to a vanished Redis may never answer). */
async function within<T>(work: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer`)), milliseconds)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The number a job's progress holds (BullMQ's progress is any JSON value). */
const progressOf = (job: Job): number => (typeof job.progress === 'number' ? job.progress : 0);

/**
 * Shards asked about at once: their requests go out together (ioredis pipelines what is sent
 * before the answers come), so a poll of N shards costs N / SHARDS_PER_BATCH round trips, not N.
 */
const SHARDS_PER_BATCH = 1000;

/** Whether a finished job completed or failed for good (a job retried after a stall is neither). */
async function finishedState(job: Job<FarmShard, FarmShardResult>): Promise<'completed' | 'failed' | undefined> {
  if (job.failedReason !== undefined && (await job.isFailed())) return 'failed';
  return (await job.isCompleted()) ? 'completed' : undefined;
}

/** Where the shards' jobs are read from (a BullMQ queue; tests give a stand-in). */
export type ShardSource = Pick<Queue<FarmShard, FarmShardResult>, 'getJob'>;

/**
 * One look at the open shards' jobs: records each finished shard's result and each running one's
 * progress. Throws a one-line UserError when a shard failed for good or Redis no longer holds its
 * job, and a plain Error when Redis does not answer within `farm.unreachableMs`.
 */
export async function pollShards(
  queue: ShardSource,
  open: readonly PendingShard[],
  farm: { readonly connection: FarmConnection; readonly unreachableMs: number },
): Promise<void> {
  for (let start = 0; start < open.length; start += SHARDS_PER_BATCH) {
    const batch = open.slice(start, start + SHARDS_PER_BATCH);
    const jobs = await within(Promise.all(batch.map((shard) => queue.getJob(shard.id))), farm.unreachableMs, 'Redis');
    const finished = await within(
      Promise.all(jobs.map((job) => (job?.finishedOn === undefined ? undefined : finishedState(job)))),
      farm.unreachableMs,
      'Redis',
    );
    for (const [i, shard] of batch.entries()) {
      const job = jobs[i];
      if (!job)
        throw new UserError(
          `the farm's Redis at ${farm.connection.shown} no longer holds shard ${shard.id} (restarted without persistence?); the run is incomplete`,
        );
      if (finished[i] === 'failed')
        throw new UserError(`farm shard ${shard.id} failed on a worker: ${(job.failedReason ?? '').split('\n')[0]}`);
      if (finished[i] === 'completed') shard.result = job.returnvalue;
      shard.progress = shard.result ? shard.result.cases : progressOf(job);
    }
  }
}
