import { Worker } from 'node:worker_threads';
import { UserError } from '../../common/errors.ts';
import type { EngineName } from '../../engines/engine.ts';
import type { CaseOutcome } from './runCases.ts';
import type { SuiteSources } from './suiteSources.ts';

/** What one worker runs. */
export interface WorkerTask {
  readonly suite: string;
  readonly engine: EngineName;
  readonly seed: number;
  readonly indices: readonly number[];
  /** Where the suites come from, so workers load the same ones. */
  readonly sources: SuiteSources;
}

export type WorkerMessage =
  | { readonly kind: 'progress'; readonly count: number }
  | { readonly kind: 'done'; readonly outcomes: CaseOutcome[] }
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
function runWorker(task: WorkerTask, onProgress: (count: number) => void): Promise<CaseOutcome[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrapCode(), { eval: true, workerData: task });
    let settled = false;
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'progress') onProgress(message.count);
      else {
        settled = true;
        void worker.terminate();
        if (message.kind === 'done') resolve(message.outcomes);
        else reject(message.user ? new UserError(message.message) : new Error(message.message));
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
 * Splits `indices` over `jobs` worker threads (case k to worker k mod jobs, so each gets a mix)
 * and gathers their outcomes in case order. External builds must be warm before this: every
 * worker finds the cached build instead of building it again.
 */
export async function runOnWorkers(
  task: Omit<WorkerTask, 'indices'>,
  indices: readonly number[],
  jobs: number,
  onProgress: (count: number) => void,
): Promise<CaseOutcome[]> {
  const shares = Array.from({ length: Math.min(jobs, indices.length) }, (_, worker) =>
    indices.filter((_, position) => position % jobs === worker),
  );
  const results = await Promise.all(shares.map((share) => runWorker({ ...task, indices: share }, onProgress)));
  return results.flat().sort((a, b) => a.index - b.index);
}
