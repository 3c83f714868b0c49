import { randomBytes } from 'node:crypto';
import { relative, sep } from 'node:path';
import { Queue } from 'bullmq';
import { UserError } from '../../../common/errors.ts';
import { startProgress } from '../../../common/progress.ts';
import { projectRoot } from '../../../common/projectRoot.ts';
import { createEngine } from '../../../engines/index.ts';
import { shardSpan, WHOLE } from '../cases.ts';
import { mergeSuiteCoverage, type SuiteCoverage } from '../coverage/data.ts';
import { recordFailure, type CaseFailure, type RegressionOptions, type SuiteRun } from '../regression.ts';
import type { FarmShard, FarmShardResult } from './farmJob.ts';
import { pollShards, type PendingShard } from './pollShards.ts';
import { redisOptions, type FarmConnection } from './redisUrl.ts';

/** Where and how a run goes to the farm. */
export interface FarmOptions {
  readonly connection: FarmConnection;
  readonly queue: string;
  /** Shards per suite × engine (each one job; more shards spread better and lose less to a dead worker). */
  readonly shards: number;
  /** How long Redis may stay unreachable before the run stops (with one line and exit 1). */
  readonly unreachableMs: number;
}

/** Milliseconds between looks at the run's jobs. */
const POLL_MS = 250;

/** Milliseconds the run's cleanup may take once it is over (Redis may be gone). */
const CLOSE_MS = 1_000;

/** Waits for `work` to settle, but no longer than `milliseconds`. */
async function settledWithin(work: Promise<unknown>, milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, milliseconds)))]);
  clearTimeout(timer);
}

/** Redis stayed unreachable past the run's patience: the run stops, sending it nothing more. */
class FarmLostError extends UserError {}

/** The suite files of the run, relative to the project root (workers resolve them in their own checkout). */
function suiteFilesOf(options: RegressionOptions): string[] {
  const files = options.sources?.files ?? options.load ?? [];
  return files.map((file) => relative(projectRoot(), file).split(sep).join('/'));
}

/**
 * Waits for every shard, showing one progress bar for the whole farm; stops with a one-line error
 * when a shard failed for good, when Redis lost a job (restarted without persistence), or when
 * Redis stays unreachable for `unreachableMs`. Never returns an incomplete run.
 */
async function awaitShards(queue: Queue, pending: PendingShard[], total: number, farm: FarmOptions): Promise<void> {
  const progress = startProgress('farm', total);
  let shown = 0;
  let lastContact = performance.now();
  try {
    for (;;) {
      const open = pending.filter((shard) => shard.result === undefined);
      if (open.length === 0) return;
      try {
        await pollShards(queue, open, farm);
        lastContact = performance.now();
      } catch (error) {
        if (error instanceof UserError) throw error;
        if (performance.now() - lastContact > farm.unreachableMs)
          throw new FarmLostError(
            `lost the farm's Redis at ${farm.connection.shown} for ${Math.round(farm.unreachableMs / 1000)} s (${(error as Error).message}); the run is incomplete`,
          );
      }
      const done = pending.reduce((sum, shard) => sum + shard.progress, 0);
      if (done > shown) progress.tick(done - shown);
      shown = Math.max(shown, done);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    progress.stop();
  }
}

/**
 * `gen regress --farm`: splits the run into shards (each suite × engine into `farm.shards` strided
 * spans), enqueues them for `gen worker` processes, waits for all of them, and builds the same
 * SuiteRuns a local run with the same seed builds — failures in case order, the first
 * `maxSavedFailures` saved here from the shrunk paths the workers found, coverage merged.
 */
export async function runOnFarm(options: RegressionOptions, farm: FarmOptions): Promise<SuiteRun[]> {
  let stopping = false;
  let lost = false;
  const queue = new Queue<FarmShard, FarmShardResult>(farm.queue, {
    connection: {
      ...redisOptions(farm.connection),
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      // Reconnect while the run waits (a restarted Redis), never once it is over.
      retryStrategy: (times: number) => (stopping ? null : Math.min(times * 100, 1000)),
    },
  });
  // Connection errors surface through the polls; the queue's own events would only repeat them.
  queue.on('error', () => {});
  const runId = `${options.seed}-${Date.now()}-${randomBytes(3).toString('hex')}`;
  const runs = options.engines.flatMap((engine) => options.suites.map((suite) => ({ engine, suite })));
  const shardCount = Math.max(1, Math.min(farm.shards, options.runs));
  const pending: PendingShard[] = [];
  const suiteFiles = suiteFilesOf(options);
  const started = performance.now();
  try {
    await Promise.race([
      queue.waitUntilReady(),
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new UserError(`cannot reach the farm's Redis at ${farm.connection.shown}`)),
          farm.unreachableMs,
        ),
      ),
    ]);
    const jobs = runs.flatMap(({ engine, suite }, run) =>
      Array.from({ length: shardCount }, (_, index) => {
        const id = `${runId}-${run}-${index}`;
        pending.push({ id, run, progress: 0 });
        const data: FarmShard = {
          run: runId,
          suite: suite.name,
          engine,
          seed: options.seed,
          span: shardSpan(options.runs, { index: index + 1, count: shardCount }),
          suiteFiles,
          coverage: options.coverage === true,
          shrinkFirst: options.maxSavedFailures,
          shrinkTimeMs: options.shrinkTimeMs,
        };
        return {
          name: `${suite.name}.${engine}`,
          data,
          opts: { jobId: id, removeOnComplete: false, removeOnFail: false },
        };
      }),
    );
    await queue.addBulk(jobs);
    process.stderr.write(
      `gen regress: ${jobs.length} shard(s) on the farm at ${farm.connection.shown}, queue ${farm.queue} (start workers: gen worker --farm …)\n`,
    );
    await awaitShards(queue, pending, options.runs * runs.length, farm).catch((error: unknown) => {
      lost = error instanceof FarmLostError;
      throw error;
    });
    return await assembleRuns(options, runs, pending, performance.now() - started);
  } finally {
    // The run's jobs are its own: finished or abandoned, they leave the queue with it (if Redis is there;
    // a vanished one gets no more commands, and no more reconnections, whose errors would follow the run's line).
    stopping = true;
    if (!lost) {
      await settledWithin(Promise.allSettled(pending.map((shard) => queue.remove(shard.id))), CLOSE_MS);
      await settledWithin(queue.close(), CLOSE_MS);
    }
  }
}

/** The SuiteRuns of a finished farm run, as runRegression builds them. */
async function assembleRuns(
  options: RegressionOptions,
  runs: readonly { engine: SuiteRun['engine']; suite: RegressionOptions['suites'][number] }[],
  pending: readonly PendingShard[],
  milliseconds: number,
): Promise<SuiteRun[]> {
  const results: SuiteRun[] = [];
  for (const [position, { engine: engineName, suite }] of runs.entries()) {
    const shards = pending.filter((shard) => shard.run === position).map((shard) => shard.result!);
    const failing = shards.flatMap((shard) => shard.failing).sort((a, b) => a.index - b.index);
    const engine = await createEngine(engineName);
    const failures: CaseFailure[] = [];
    for (const [rank, failure] of failing.entries())
      failures.push(await recordFailure(suite, engine, options, failure, rank < options.maxSavedFailures));
    const coverage = shards
      .map((shard) => shard.coverage)
      .filter((part): part is SuiteCoverage => part !== undefined)
      .reduce<SuiteCoverage | undefined>(
        (merged, part) => (merged ? mergeSuiteCoverage(merged, part) : part),
        undefined,
      );
    results.push({
      suite: suite.name,
      engine: engineName,
      cases: shards.reduce((sum, shard) => sum + shard.cases, 0),
      span: shardSpan(options.runs, WHOLE),
      runSeed: options.seed,
      failures,
      milliseconds: milliseconds / runs.length,
      ...(coverage ? { coverage } : {}),
    });
  }
  return results;
}
