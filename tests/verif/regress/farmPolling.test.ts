/**
 * The farm submitter's look at its shards (pollShards) against a stand-in queue with a round-trip
 * delay: tens of thousands of shards must not cost one Redis round trip each in turn, and a lost
 * or failed shard is still a one-line error naming it.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../common/errors.ts';
import { pollShards, type PendingShard, type ShardSource } from '../../../verif/regress/farm/pollShards.ts';

const farm = { connection: { host: '127.0.0.1', port: 6379, shown: 'redis://127.0.0.1:6379' }, unreachableMs: 5000 };

/** What the stand-in holds for a shard: done with a result, running with a progress, failed, or gone. */
type Held = { cases: number } | { progress: number } | { failed: string } | undefined;

/** A queue whose getJob answers after a round trip, counting how many requests are in flight at once. */
function standInQueue(held: (id: string) => Held): ShardSource & { readonly mostInFlight: () => number } {
  let inFlight = 0;
  let most = 0;
  const getJob = async (id: string): Promise<unknown> => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight--;
    const state = held(id);
    if (state === undefined) return undefined;
    const finished = 'cases' in state || 'failed' in state;
    return {
      progress: 'progress' in state ? state.progress : 0,
      ...(finished ? { finishedOn: 1 } : {}),
      ...('failed' in state ? { failedReason: `${state.failed}\n    at worker.ts:1:1` } : {}),
      returnvalue: 'cases' in state ? { cases: state.cases, failing: [], milliseconds: 1, worker: 'w:1' } : null,
      isCompleted: async () => 'cases' in state,
      isFailed: async () => 'failed' in state,
    };
  };
  return { getJob: getJob as ShardSource['getJob'], mostInFlight: () => most };
}

const shardsOf = (count: number): PendingShard[] =>
  Array.from({ length: count }, (_, index) => ({ id: `run-0-${index}`, run: 0, progress: 0 }));

describe('farm shard polling', () => {
  it('asks Redis about many shards at once, not one after another, and records every result and progress', async () => {
    const shards = shardsOf(5000);
    const queue = standInQueue((id) => (Number(id.split('-')[2]) % 2 === 0 ? { cases: 7 } : { progress: 3 }));
    await pollShards(queue, shards, farm);
    expect(queue.mostInFlight()).toBeGreaterThanOrEqual(500);
    expect(shards.filter((shard) => shard.result?.cases === 7)).toHaveLength(2500);
    expect(shards.every((shard) => shard.progress === (shard.result ? 7 : 3))).toBe(true);
  });

  it('a shard Redis no longer holds, or one that failed on a worker, is a one-line error naming it', async () => {
    const lost = pollShards(
      standInQueue((id) => (id === 'run-0-41' ? undefined : { progress: 1 })),
      shardsOf(100),
      farm,
    );
    await expect(lost).rejects.toThrow(UserError);
    await expect(lost).rejects.toThrow(
      /^the farm's Redis at redis:\/\/127\.0\.0\.1:6379 no longer holds shard run-0-41 \(restarted without persistence\?\); the run is incomplete$/,
    );
    const failed = pollShards(
      standInQueue((id) => (id === 'run-0-7' ? { failed: 'no suite Foo in this checkout' } : { progress: 1 })),
      shardsOf(100),
      farm,
    );
    await expect(failed).rejects.toThrow(/^farm shard run-0-7 failed on a worker: no suite Foo in this checkout$/);
  });
});
