import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { Worker, type Job } from 'bullmq';
import { findConfigFile, projectRoot } from '../../../common/projectRoot.ts';
import { createEngine } from '../../../engines/index.ts';
import type { Engine, EngineName } from '../../../hw/contract/engine.ts';
import { WHOLE } from '../cases.ts';
import { CoverageCollector } from '../coverage/collect.ts';
import { failingCase, runSpan, type FailingCase, type RegressionOptions } from '../regression.ts';
import { shrinkCase } from '../shrink.ts';
import type { RegressSuite } from '../suite.ts';
import { loadSuites } from '../suiteSources.ts';
import type { FarmShard, FarmShardResult } from './farmJob.ts';
import { redisOptions, type FarmConnection } from './redisUrl.ts';

/** How a farm worker runs. */
export interface FarmWorkerOptions {
  readonly connection: FarmConnection;
  readonly queue: string;
  /** Worker threads per shard (as `gen regress --jobs`). */
  readonly jobs: number;
  /**
   * How long a shard's lock lasts without renewal: a worker killed mid-shard stops renewing it,
   * and after this long (plus one stalled-job check) another worker takes the shard again.
   */
  readonly lockMs: number;
  /** One line per finished shard, and the worker's connection troubles. */
  readonly log: (line: string) => void;
}

/** Milliseconds between progress reports of a running shard (the submitter's bar). */
const PROGRESS_EVERY_MS = 500;

/** A stalled shard is retried this many times before the run is told it failed (a case that kills its worker). */
export const MAX_STALLS = 3;

/** Suites and engines a worker loaded once and keeps for the shards that follow. */
class WorkerCache {
  private readonly suites = new Map<string, Promise<RegressSuite[]>>();
  private readonly engines = new Map<EngineName, Promise<Engine>>();

  async suite(shard: FarmShard): Promise<RegressSuite> {
    const key = JSON.stringify(shard.suiteFiles);
    if (!this.suites.has(key)) {
      const config = findConfigFile();
      const files = shard.suiteFiles.map((file) => resolve(projectRoot(), file));
      this.suites.set(key, loadSuites({ ...(config === undefined ? {} : { config }), files }));
    }
    const found = (await this.suites.get(key)!).find((suite) => suite.name === shard.suite);
    if (!found) throw new Error(`this worker's project has no suite ${shard.suite} (is it the submitter's checkout?)`);
    return found;
  }

  engine(name: EngineName): Promise<Engine> {
    if (!this.engines.has(name)) this.engines.set(name, createEngine(name));
    return this.engines.get(name)!;
  }
}

/** Runs one shard: its span of cases, then shrinks its first failing cases. */
async function runShard(job: Job<FarmShard>, cache: WorkerCache, options: FarmWorkerOptions): Promise<FarmShardResult> {
  const shard = job.data;
  const start = performance.now();
  const suite = await cache.suite(shard);
  const engine = await cache.engine(shard.engine);
  const coverage = shard.coverage ? new CoverageCollector(suite, shard.engine) : undefined;
  const regression: RegressionOptions = {
    suites: [suite],
    engines: [shard.engine],
    runs: shard.span.count,
    seed: shard.seed,
    shard: WHOLE,
    jobs: options.jobs,
    out: projectRoot(),
    shrinkTimeMs: shard.shrinkTimeMs,
    maxSavedFailures: shard.shrinkFirst,
    replayCommand: () => '',
    sources: { files: shard.suiteFiles.map((file) => resolve(projectRoot(), file)) },
  };
  let done = 0;
  let reported = performance.now();
  const outcome = await runSpan(
    suite,
    engine,
    regression,
    shard.span,
    (count) => {
      done += count;
      if (performance.now() - reported < PROGRESS_EVERY_MS) return;
      reported = performance.now();
      void job.updateProgress(done).catch(() => {});
    },
    coverage,
    Infinity,
  );
  const failing: FailingCase[] = [];
  for (const [position, outcomeOfCase] of outcome.failing.entries()) {
    const described = failingCase(outcomeOfCase);
    const shrunk =
      position < shard.shrinkFirst
        ? await shrinkCase(suite, engine, outcomeOfCase.seed, shard.shrinkTimeMs)
        : undefined;
    failing.push(
      shrunk
        ? { ...described, shrunk: { path: shrunk.path, shrinks: shrunk.shrinks, interrupted: shrunk.interrupted } }
        : described,
    );
  }
  return {
    cases: outcome.ran,
    failing,
    ...(coverage ? { coverage: coverage.result() } : {}),
    milliseconds: performance.now() - start,
    worker: `${hostname()}:${process.pid}`,
  };
}

/**
 * A farm worker: takes shards from the queue one at a time, runs them on engines it builds (or
 * finds in its build cache) and keeps, and returns each shard's result through the queue. Resolves
 * with a handle whose `close()` lets the shard in hand finish first.
 */
export async function startFarmWorker(options: FarmWorkerOptions): Promise<{ close(): Promise<void> }> {
  const cache = new WorkerCache();
  const worker = new Worker<FarmShard, FarmShardResult>(options.queue, (job) => runShard(job, cache, options), {
    connection: { ...redisOptions(options.connection), maxRetriesPerRequest: null },
    concurrency: 1,
    lockDuration: options.lockMs,
    stalledInterval: options.lockMs,
    maxStalledCount: MAX_STALLS,
  });
  let troubled = false;
  worker.on('error', (error) => {
    if (troubled) return;
    troubled = true;
    options.log(`cannot reach the farm at ${options.connection.shown} (${error.message}); retrying`);
  });
  worker.on('ready', () => (troubled = false));
  worker.on('active', (job) =>
    options.log(`${job.data.suite} on ${job.data.engine}: shard ${job.id} started (${job.data.span.count} cases)`),
  );
  worker.on('completed', (job, result) =>
    options.log(
      `${job.data.suite} on ${job.data.engine}: ${result.cases} cases, ${result.failing.length} failing, ${(result.milliseconds / 1000).toFixed(1)} s`,
    ),
  );
  worker.on('failed', (job, error) => options.log(`${job?.data.suite ?? 'a shard'} failed: ${error.message}`));
  await worker.waitUntilReady();
  return { close: () => worker.close() };
}
