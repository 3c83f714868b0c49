/**
 * A worker thread of `gen regress --jobs`: runs its share of one suite's cases on one engine and
 * posts the outcomes back (progress as it goes). Started by workerPool.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../../common/errors.ts';
import { createEngine } from '../../engines/index.ts';
import { runCases } from './runCases.ts';
import { CoverageCollector } from './coverage/collect.ts';
import { loadSuites } from './suiteSources.ts';
import { setProjectRoot } from '../../common/projectRoot.ts';
import { setBuildRoot } from '../../tools/buildCache.ts';
import type { WorkerTask, WorkerMessage } from './workerPool.ts';

const task = workerData as WorkerTask;
const post = (message: WorkerMessage): void => parentPort!.postMessage(message);
try {
  if (task.roots) {
    setProjectRoot(task.roots.project);
    setBuildRoot(task.roots.build);
  }
  const suite = (await loadSuites(task.sources)).find((candidate) => candidate.name === task.suite);
  if (!suite) throw new Error(`worker: no suite ${task.suite}`);
  const engine = await createEngine(task.engine);
  const coverage = task.coverage ? new CoverageCollector(suite, task.engine) : undefined;
  const outcomes = await runCases(
    suite,
    engine,
    task.seed,
    task.indices,
    (count) => post({ kind: 'progress', count }),
    coverage,
  );
  post({ kind: 'done', outcomes, ...(coverage ? { coverage: coverage.result() } : {}) });
} catch (error) {
  post({
    kind: 'error',
    message: error instanceof Error ? error.message : String(error),
    user: error instanceof UserError,
  });
}
