import { readFileSync } from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import { Worker } from 'node:worker_threads';
import { UserError } from '../../common/errors.ts';
import type { EngineName } from '../../hw/contract/engine.ts';
import type { CaseOutcome } from './runCases.ts';
import type { SuiteSources } from './suiteSources.ts';
import type { SuiteCoverage } from './coverage/data.ts';

/** What one worker loads: the suite, the engine and the run's seed; its cases come in chunks. */
export interface WorkerTask {
  readonly suite: string;
  readonly engine: EngineName;
  readonly seed: number;
  /** Where the suites come from, so workers load the same ones. */
  readonly sources: SuiteSources;
  /** The project root and build cache of the run (set by the config), so workers cite and cache alike. */
  readonly roots?: { readonly project: string; readonly build: string };
  /** Collect coverage of the worker's cases and send it back when it stops. */
  readonly coverage?: boolean;
}

/** What a worker posts: loaded, cases done (progress), a chunk's outcomes, its coverage when it stops, or an error. */
export type WorkerMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'progress'; readonly count: number }
  | { readonly kind: 'outcomes'; readonly outcomes: CaseOutcome[] }
  | { readonly kind: 'done'; readonly coverage?: SuiteCoverage }
  | { readonly kind: 'error'; readonly message: string; readonly user: boolean };

/** What a worker is sent: a chunk of case indices to run, or to stop once the chunks sent are done. */
export type WorkerRequest = { readonly kind: 'chunk'; readonly indices: readonly number[] } | { readonly kind: 'stop' };

/**
 * Cases handed out at a time, to whichever thread is free: the engines' own batch (runCases.ts),
 * so an external engine starts as many harness processes as in one thread; on ts about a second.
 */
export const CASES_PER_CHUNK = 200;
/** Chunks a worker holds ahead, so it never waits for this thread, which runs chunks of its own in between. */
const CHUNKS_AHEAD = 2;

/**
 * A worker thread. The compiled package (dist/) starts worker.js as it is: it registers the light
 * TypeScript hooks itself when it loads the project's suites (moduleFile.ts). Run from the
 * TypeScript sources, tsx's loader hooks do not carry over to worker threads, so the thread
 * registers them first and then imports worker.ts.
 */
function startWorker(task: WorkerTask): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./worker.js', import.meta.url), { workerData: task });
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData: task });
}

/** One worker thread fed chunks from `take` until none is left; `finished` settles when it has stopped. */
class ChunkWorker {
  readonly finished: Promise<void>;
  /** Why the worker failed, once it has. */
  failure?: Error;
  private readonly worker: Worker;
  private inFlight = 0;
  private stopping = false;
  private stopped = false;

  constructor(
    task: WorkerTask,
    take: () => readonly number[] | undefined,
    onOutcomes: (outcomes: readonly CaseOutcome[]) => void,
    onProgress: (count: number) => void,
    onCoverage: (part: SuiteCoverage) => void,
  ) {
    this.worker = startWorker(task);
    this.finished = new Promise((resolve, reject) => {
      const fail = (error: Error): void => {
        if (this.stopped || this.failure) return;
        this.failure = error;
        reject(error);
      };
      const feed = (): void => {
        for (let chunk; this.inFlight < CHUNKS_AHEAD && !this.stopping && (chunk = take()); this.inFlight++)
          this.send({ kind: 'chunk', indices: chunk });
        if (this.inFlight === 0 && !this.stopping) {
          this.stopping = true;
          this.send({ kind: 'stop' });
        }
      };
      this.worker.on('message', (message: WorkerMessage) => {
        if (message.kind === 'ready') feed();
        else if (message.kind === 'progress') onProgress(message.count);
        else if (message.kind === 'outcomes') {
          this.inFlight--;
          onOutcomes(message.outcomes);
          feed();
        } else if (message.kind === 'done') {
          if (message.coverage) onCoverage(message.coverage);
          this.stopped = true;
          resolve();
        } else fail(message.user ? new UserError(message.message) : new Error(message.message));
      });
      this.worker.on('error', fail);
      this.worker.on('exit', (code) => fail(new Error(`regression worker exited with code ${code}`)));
    });
    // Observed through `failure` and Promise.all in runOnWorkers; never an unhandled rejection.
    this.finished.catch(() => {});
  }

  private send(request: WorkerRequest): void {
    this.worker.postMessage(request);
  }

  terminate(): void {
    void this.worker.terminate();
  }
}

/**
 * Peak memory one more worker adds, measured with `gen regress --suite all --engine ts --runs 8
 * --seed 1`: 237 MB peak RSS at --jobs 1, 858 MB at --jobs 4, so 207 MB per worker (each loads
 * tsx, the suites and their designs); a run of --jobs 32 peaked at 9.5 GB (~300 MB each).
 * Budgeted with margin.
 */
export const WORKER_MEMORY_BYTES = 320 * 2 ** 20;
/** Share of the available memory the workers may take together. */
const MEMORY_SHARE = 0.75;

/** Memory the kernel says can be had without swapping (MemAvailable counts reclaimable cache; freemem does not). */
function availableMemoryBytes(): number {
  try {
    const match = /^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall back to free memory.
  }
  return freemem();
}

/** How many workers this machine can run: no more than its cores, nor than fit in 3/4 of its available memory. */
export function jobsCap(): { readonly jobs: number; readonly cores: number; readonly availableBytes: number } {
  const cores = availableParallelism();
  const availableBytes = availableMemoryBytes();
  const byMemory = Math.floor((availableBytes * MEMORY_SHARE) / WORKER_MEMORY_BYTES);
  return { jobs: Math.max(1, Math.min(cores, byMemory)), cores, availableBytes };
}

/**
 * Cases a worker must get to repay its start when the user did not choose --jobs. Measured with
 * `gen regress --suite BitmapDecoder --engine ts --runs N --seed 1` on the compiled package
 * (docs/performance.md, "Every core"): a worker's start (the suites, code generation, V8's compile
 * of the model) costs ≈ 4 s of CPU against ≈ 5 ms a case, so it repays itself from ≈ 800 cases on;
 * two threads then measured 1.29–1.34× one at 4,000–10,000 cases on two cores.
 */
export const CASES_PER_WORKER = 1000;

/** Workers when --jobs is not given: one per `CASES_PER_WORKER` cases of a suite, at most `jobsCap()`. */
export function autoJobs(casesPerSuite: number): number {
  return Math.max(1, Math.min(jobsCap().jobs, Math.floor(casesPerSuite / CASES_PER_WORKER)));
}

/** `requested` workers capped by `jobsCap()`, with the line that says so when it was. */
export function capJobs(requested: number): { readonly jobs: number; readonly note?: string } {
  const cap = jobsCap();
  if (requested <= cap.jobs) return { jobs: requested };
  const gib = (cap.availableBytes / 2 ** 30).toFixed(1);
  return {
    jobs: cap.jobs,
    note: `--jobs ${requested} capped at ${cap.jobs}: ${cap.cores} cores, ${gib} GiB available at ${WORKER_MEMORY_BYTES / 2 ** 20} MiB per worker`,
  };
}

/**
 * Runs `indices` on this thread (`runHere`) and `jobs` − 1 worker threads together: chunks of
 * `CASES_PER_CHUNK` go to whichever thread is free, and the outcomes come back in case order, the
 * same as one thread's. External builds must be warm before this: every worker finds the cached
 * build instead of building it again.
 */
export async function runOnWorkers(
  task: WorkerTask,
  indices: readonly number[],
  jobs: number,
  runHere: (chunk: readonly number[]) => Promise<readonly CaseOutcome[]>,
  onProgress: (count: number) => void,
  onCoverage: (part: SuiteCoverage) => void = () => {},
): Promise<CaseOutcome[]> {
  const chunks: (readonly number[])[] = [];
  for (let start = 0; start < indices.length; start += CASES_PER_CHUNK)
    chunks.push(indices.slice(start, start + CASES_PER_CHUNK));
  let next = 0;
  const take = (): readonly number[] | undefined => chunks[next++];
  const outcomes: CaseOutcome[] = [];
  const gather = (part: readonly CaseOutcome[]): void => {
    outcomes.push(...part);
  };
  const workers = Array.from(
    { length: Math.max(0, Math.min(capJobs(jobs).jobs, chunks.length) - 1) },
    () => new ChunkWorker(task, take, gather, onProgress, onCoverage),
  );
  try {
    for (let chunk = take(); chunk; chunk = take()) {
      gather(await runHere(chunk));
      // Back to the event loop: the workers' results come in and they are fed their next chunks.
      await new Promise((resolve) => setImmediate(resolve));
      const failed = workers.find((worker) => worker.failure);
      if (failed) throw failed.failure;
    }
    await Promise.all(workers.map((worker) => worker.finished));
  } finally {
    for (const worker of workers) worker.terminate();
  }
  return outcomes.sort((a, b) => a.index - b.index);
}
