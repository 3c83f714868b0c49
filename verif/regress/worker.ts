/**
 * A worker thread of `gen regress --jobs`: loads one suite and engine, then runs the chunks of
 * cases it is sent and posts each chunk's outcomes back (progress as it goes); on `stop`, its
 * coverage. Started by workerPool.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../../common/errors.ts';
import { createEngine } from '../../engines/index.ts';
import { runCases } from './runCases.ts';
import { CoverageCollector } from './coverage/collect.ts';
import { loadSuites } from './suiteSources.ts';
import { setProjectRoot } from '../../common/projectRoot.ts';
import { setBuildRoot } from '../../tools/buildCache.ts';
import type { WorkerTask, WorkerMessage, WorkerRequest } from './workerPool.ts';

const task = workerData as WorkerTask;
const port = parentPort!;
const post = (message: WorkerMessage): void => port.postMessage(message);
const report = (error: unknown): void =>
  post({
    kind: 'error',
    message: error instanceof Error ? error.message : String(error),
    user: error instanceof UserError,
  });

try {
  if (task.roots) {
    setProjectRoot(task.roots.project);
    setBuildRoot(task.roots.build);
  }
  const suite = (await loadSuites(task.sources)).find((candidate) => candidate.name === task.suite);
  if (!suite) throw new Error(`worker: no suite ${task.suite}`);
  const engine = await createEngine(task.engine);
  const coverage = task.coverage ? new CoverageCollector(suite, task.engine) : undefined;
  // Requests run one after another, in the order sent.
  let queue = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    queue = queue
      .then(async () => {
        if (request.kind === 'chunk') {
          const outcomes = await runCases(
            suite,
            engine,
            task.seed,
            request.indices,
            (count) => post({ kind: 'progress', count }),
            coverage,
          );
          post({ kind: 'outcomes', outcomes });
        } else {
          post({ kind: 'done', ...(coverage ? { coverage: coverage.result() } : {}) });
          port.close();
        }
      })
      .catch(report);
  });
  post({ kind: 'ready' });
} catch (error) {
  report(error);
}
