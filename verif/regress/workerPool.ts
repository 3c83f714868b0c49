import { readFileSync } from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import { Worker } from 'node:worker_threads';
import { UserError } from '../../common/errors.ts';
import type { EngineName } from '../../hw/contract/engine.ts';
import type { CaseOutcome } from './runCases.ts';
import type { SuiteSources } from './suiteSources.ts';
import type { SuiteCoverage } from './coverage/data.ts';

/** What one worker runs. */
export interface WorkerTask {
  readonly suite: string;
  readonly engine: EngineName;
  readonly seed: number;
  readonly indices: readonly number[];
  /** Where the suites come from, so workers load the same ones. */
  readonly sources: SuiteSources;
  /** The project root and build cache of the run (set by the config), so workers cite and cache alike. */
  readonly roots?: { readonly project: string; readonly build: string };
  /** Collect coverage of the share and send it back with the outcomes. */
  readonly coverage?: boolean;
}

export type WorkerMessage =
  | { readonly kind: 'progress'; readonly count: number }
  | { readonly kind: 'done'; readonly outcomes: CaseOutcome[]; readonly coverage?: SuiteCoverage }
  | { readonly kind: 'error'; readonly message: string; readonly user: boolean };

/**
 * Workers run TypeScript: tsx's loader hooks do not carry over to worker threads, so each one
 * registers them first and then imports worker.ts.
 */
function bootstrapCode(): string {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  // The compiled package (dist/) has worker.js beside this file, the checkout worker.ts.
  const entry = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
}

/** Runs one task on a new worker thread; resolves with its outcomes. */
function runWorker(
  task: WorkerTask,
  onProgress: (count: number) => void,
  onCoverage: (part: SuiteCoverage) => void,
): Promise<CaseOutcome[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrapCode(), { eval: true, workerData: task });
    let settled = false;
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'progress') onProgress(message.count);
      else {
        settled = true;
        void worker.terminate();
        if (message.kind === 'done') {
          if (message.coverage) onCoverage(message.coverage);
          resolve(message.outcomes);
        } else reject(message.user ? new UserError(message.message) : new Error(message.message));
      }
    });
    worker.on('error', (error) => {
      if (!settled) reject(error);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`regression worker exited with code ${code}`));
    });
  });
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
 * `gen regress --suite BitmapDecoder --engine ts --runs 2000 --seed 1` (docs/performance.md,
 * "Every core"): --jobs 1 spent 59.7 s CPU (30 ms a case), --jobs 2 73.5 s, so a worker's start
 * (tsx, the suites, code generation, V8's compile of the model) costs ≈ 14 s CPU; on free cores a
 * second worker repays it from 2 × 14 s / 30 ms ≈ 930 cases on, and at 2,000 cases (this
 * threshold's first split) it can give at most 1.4×.
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
 * Splits `indices` over `jobs` worker threads (case k to worker k mod jobs, so each gets a mix)
 * and gathers their outcomes in case order. External builds must be warm before this: every
 * worker finds the cached build instead of building it again.
 */
export async function runOnWorkers(
  task: Omit<WorkerTask, 'indices'>,
  indices: readonly number[],
  jobs: number,
  onProgress: (count: number) => void,
  onCoverage: (part: SuiteCoverage) => void = () => {},
): Promise<CaseOutcome[]> {
  const workers = Math.min(capJobs(jobs).jobs, indices.length);
  const shares = Array.from({ length: workers }, (_, worker) =>
    indices.filter((_, position) => position % workers === worker),
  );
  const results = await Promise.all(
    shares.map((share) => runWorker({ ...task, indices: share }, onProgress, onCoverage)),
  );
  return results.flat().sort((a, b) => a.index - b.index);
}
