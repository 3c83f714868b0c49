import { join, relative, sep } from 'node:path';
import { startProgress } from '../../common/progress.ts';
import { createEngine } from '../../engines/index.ts';
import type { Engine, EngineName } from '../../hw/contract/engine.ts';
import { caseSeed, shardSpan, spanIndices, type CaseSpan, type Shard } from './cases.ts';
import { describeMismatch } from './compare.ts';
import { saveFailureFolder } from './failureFolder.ts';
import { checkCase, drawCase, runCases, type CaseOutcome } from './runCases.ts';
import { caseAtPath, shrinkCase } from './shrink.ts';
import type { RegressSuite } from './suite.ts';
import { runOnWorkers } from './workerPool.ts';
import { BUILD_ROOT } from '../../tools/buildCache.ts';
import type { SuiteSources } from './suiteSources.ts';
import { findConfigFile, projectRoot } from '../../common/projectRoot.ts';
import type { Params } from '../../hw/core/index.ts';
import { CoverageCollector } from './coverage/collect.ts';
import { sampleStreams } from './coverage/sample.ts';
import type { SuiteCoverage } from './coverage/data.ts';

/** How a regression runs. */
export interface RegressionOptions {
  readonly suites: readonly RegressSuite[];
  readonly engines: readonly EngineName[];
  readonly runs: number;
  readonly seed: number;
  readonly shard: Shard;
  readonly jobs: number;
  /** Failure folders go to `<out>/<suite>-<engine>-<seed>/case-<k>/`. */
  readonly out: string;
  /** Per failing case, on the engine that failed it. */
  readonly shrinkTimeMs: number;
  /** Failures shrunk and saved per suite × engine; the rest are listed with their replay command. */
  readonly maxSavedFailures: number;
  /**
   * The command that reruns one case (the CLI knows its own spelling and `--load` files); `folder`
   * is the case's failure folder when it is saved (a replay may then name just the folder).
   */
  readonly replayCommand: (
    suite: string,
    engine: EngineName,
    caseIndex: number,
    path?: string,
    folder?: string,
  ) => string;
  /** The command that runs a saved stimulus.jsonl on the failing top (written in the failure folder's README). */
  readonly simCommand?: (top: string, params: Params, vectors: string) => string;
  /**
   * Where `suites` came from, handed to worker threads so they load the same suites (default: the
   * project config found from the working directory, plus `load`).
   */
  readonly sources?: SuiteSources;
  /** Suite files beside the config (the CLI's `--load`), when `sources` is not given. */
  readonly load?: readonly string[];
  /** Replay one case (and its fast-check path) instead of running the case space. */
  readonly replay?: { readonly caseIndex: number; readonly path?: string };
  /** Collect coverage (toggles, cover points, the suites' bins; verif/regress/coverage/), on the workers too. */
  readonly coverage?: boolean;
  /**
   * Milliseconds after which no new chunk of cases starts (`--time-budget`): the run reports the
   * cases it ran, as a prefix of each span, and says where it stopped.
   */
  readonly timeBudgetMs?: number;
}

/** One failing case as the summary and JUnit see it. */
export interface CaseFailure {
  readonly caseIndex: number;
  readonly caseSeed: number;
  readonly message: string;
  readonly replay: string;
  /** The failure folder, when the case was shrunk and saved. */
  readonly folder?: string;
}

/** One suite on one engine. */
export interface SuiteRun {
  readonly suite: string;
  readonly engine: EngineName;
  readonly cases: number;
  /** The cases it ran (`cases` of them); case k's seed is caseSeed(runSeed, k). */
  readonly span: CaseSpan;
  readonly runSeed: number;
  readonly failures: readonly CaseFailure[];
  /** Why it ran fewer cases than its span asked (the time budget, or too many failures). */
  readonly stopped?: string;
  readonly milliseconds: number;
  /** With `coverage`: what the cases reached. */
  readonly coverage?: SuiteCoverage;
}

function sourcesOf(options: RegressionOptions): SuiteSources {
  if (options.sources) return options.sources;
  const config = findConfigFile();
  return { ...(config === undefined ? {} : { config }), files: options.load ?? [] };
}

/**
 * Cases run (and their outcomes held) at a time: memory holds one chunk, whatever `runs` is. In
 * process a chunk is short, so a time budget ends within about a second; on worker threads each
 * chunk starts the workers again, so there it is larger per worker.
 */
const CHUNK_CASES = { inProcess: 2_000, perWorker: 10_000 } as const;

/**
 * Failing cases recorded per suite × engine. A block that fails this many is broken; more
 * failures would only fill memory, so its run stops there and says so.
 */
export const MAX_RECORDED_FAILURES = 10_000;

/** What a span's run left: its failing outcomes, how many of its cases ran, and why it stopped early. */
export interface SpanOutcome {
  readonly failing: readonly CaseOutcome[];
  readonly ran: number;
  readonly stopped?: string;
}

/**
 * Runs a span's cases chunk by chunk, keeping only the failing outcomes, so memory does not grow
 * with the number of cases; stops starting chunks at `deadline` (performance.now() milliseconds).
 */
export async function runSpan(
  suite: RegressSuite,
  engine: Engine,
  options: RegressionOptions,
  span: CaseSpan,
  tick: (count: number) => void,
  coverage: CoverageCollector | undefined,
  deadline: number,
): Promise<SpanOutcome> {
  const failing: CaseOutcome[] = [];
  const chunk = options.jobs <= 1 ? CHUNK_CASES.inProcess : CHUNK_CASES.perWorker * options.jobs;
  let ran = 0;
  while (ran < span.count) {
    if (performance.now() >= deadline)
      return { failing, ran, stopped: `time budget spent after ${ran} of ${span.count} cases` };
    const indices = spanIndices(span, ran, ran + chunk);
    for (const outcome of await runShare(suite, engine, options, indices, tick, coverage))
      if (outcome.mismatch) failing.push(outcome);
    ran += indices.length;
    // Back to the event loop between chunks: timers (progress, a farm worker's lock renewal) run.
    await new Promise((resolve) => setImmediate(resolve));
    if (failing.length >= MAX_RECORDED_FAILURES && ran < span.count)
      return { failing, ran, stopped: `${failing.length} failing cases: stopped after ${ran} of ${span.count} cases` };
  }
  return { failing, ran };
}

/** Runs cases in this process, or on worker threads after building once here. */
async function runShare(
  suite: RegressSuite,
  engine: Engine,
  options: RegressionOptions,
  indices: readonly number[],
  tick: (count: number) => void,
  coverage?: CoverageCollector,
): Promise<CaseOutcome[]> {
  if (options.jobs <= 1 || indices.length < 2) return runCases(suite, engine, options.seed, indices, tick, coverage);
  // Build (or find cached) the design before fanning out, so workers share one build.
  const first = drawCase(suite, caseSeed(options.seed, indices[0]!));
  // With coverage the external engines run a traced build: warm that one.
  if (coverage) await sampleStreams(engine, suite.design(first), [suite.vectors(first).stimulus]);
  else await engine.runMany(suite.design(first), [suite.vectors(first).stimulus]);
  return runOnWorkers(
    {
      suite: suite.name,
      engine: engine.name,
      seed: options.seed,
      sources: sourcesOf(options),
      roots: { project: projectRoot(), build: BUILD_ROOT },
      ...(coverage ? { coverage: true } : {}),
    },
    indices,
    options.jobs,
    (chunk) => runCases(suite, engine, options.seed, chunk, tick, coverage),
    tick,
    (part) => coverage?.absorb(part),
  );
}

/** Where shrinking a failing case ended: its fast-check path from the case's seed, and how it went. */
export interface ShrinkOutcome {
  readonly path: string;
  readonly shrinks: number;
  readonly interrupted: boolean;
}

/** A failing case as recorded: its index, seed and first mismatch, and its shrink when it was shrunk elsewhere (a farm worker). */
export interface FailingCase {
  readonly index: number;
  readonly seed: number;
  readonly message: string;
  readonly shrunk?: ShrinkOutcome;
}

/** A failing outcome as a FailingCase (its mismatch described). */
export const failingCase = (outcome: CaseOutcome): FailingCase => ({
  index: outcome.index,
  seed: outcome.seed,
  message: describeMismatch(outcome.mismatch!),
});

/** Shrinks a failing case on its engine (unless it comes shrunk) and saves its folder. */
export async function recordFailure(
  suite: RegressSuite,
  engine: Engine,
  options: RegressionOptions,
  outcome: FailingCase,
  save: boolean,
): Promise<CaseFailure> {
  const base = { caseIndex: outcome.index, caseSeed: outcome.seed };
  const firstMessage = outcome.message;
  if (!save)
    return { ...base, message: firstMessage, replay: options.replayCommand(suite.name, engine.name, outcome.index) };
  const replayPath = options.replay?.path;
  const shrunk =
    outcome.shrunk ??
    (replayPath === undefined ? await shrinkCase(suite, engine, outcome.seed, options.shrinkTimeMs) : undefined);
  const path = shrunk?.path ?? replayPath ?? '0';
  // A shrunk path regenerates the shrunk value exactly, wherever it was shrunk.
  const value = caseAtPath(suite, outcome.seed, path);
  const folder = join(options.out, `${suite.name}-${engine.name}-${options.seed}`, `case-${outcome.index}`);
  const replay = options.replayCommand(suite.name, engine.name, outcome.index, path, folder);
  const sources = sourcesOf(options);
  const identity = {
    suite: suite.name,
    engine: engine.name,
    runSeed: options.seed,
    caseIndex: outcome.index,
    caseSeed: outcome.seed,
    path,
    shrinks: shrunk?.shrinks ?? 0,
    interrupted: shrunk?.interrupted ?? false,
    // Relative to the project root, so the folder replays after the project moves.
    suiteFiles: sources.files.map((file) => relative(projectRoot(), file).split(sep).join('/')),
  };
  const commands = {
    replay,
    longReplay: options.replayCommand(suite.name, engine.name, outcome.index, path),
    ...(options.simCommand ? { sim: options.simCommand } : {}),
  };
  const mismatch = await saveFailureFolder(folder, suite, engine, identity, value, commands);
  return {
    ...base,
    message: `${mismatch ? describeMismatch(mismatch) : firstMessage} (shrunk: path ${path})`,
    replay,
    folder,
  };
}

/** Runs the replayed case only: the value at its path, or case k as first drawn. */
async function replayCase(
  suite: RegressSuite,
  engine: Engine,
  options: RegressionOptions,
  caseIndex: number,
  path: string | undefined,
): Promise<SpanOutcome> {
  const seed = caseSeed(options.seed, caseIndex);
  const value = path === undefined ? drawCase(suite, seed) : caseAtPath(suite, seed, path);
  const mismatch = await checkCase(suite, engine, value);
  return { failing: mismatch ? [{ index: caseIndex, seed, mismatch }] : [], ran: 1 };
}

/**
 * Runs every selected suite on every selected engine over this shard's cases, shrinks and saves
 * failures, and returns one SuiteRun per (suite, engine).
 */
export async function runRegression(options: RegressionOptions): Promise<SuiteRun[]> {
  const span: CaseSpan = options.replay
    ? { first: options.replay.caseIndex, step: 1, count: 1 }
    : shardSpan(options.runs, options.shard);
  const deadline = performance.now() + (options.timeBudgetMs ?? Infinity);
  const results: SuiteRun[] = [];
  const progress = startProgress('regress', span.count * options.suites.length * options.engines.length);
  try {
    for (const engineName of options.engines) {
      const engine = await createEngine(engineName);
      for (const suite of options.suites) {
        const start = performance.now();
        const coverage = options.coverage && !options.replay ? new CoverageCollector(suite, engineName) : undefined;
        const outcome = options.replay
          ? await replayCase(suite, engine, options, options.replay.caseIndex, options.replay.path)
          : await runSpan(suite, engine, options, span, (count) => progress.tick(count), coverage, deadline);
        const failures: CaseFailure[] = [];
        for (const [position, failing] of outcome.failing.entries())
          failures.push(
            await recordFailure(suite, engine, options, failingCase(failing), position < options.maxSavedFailures),
          );
        results.push({
          suite: suite.name,
          engine: engineName,
          cases: outcome.ran,
          span: { ...span, count: outcome.ran },
          runSeed: options.seed,
          failures,
          milliseconds: performance.now() - start,
          ...(outcome.stopped === undefined ? {} : { stopped: outcome.stopped }),
          ...(coverage ? { coverage: coverage.result() } : {}),
        });
      }
    }
  } finally {
    progress.stop();
  }
  return results;
}
