/**
 * `coruscant-hdl/regress`: randomized equivalence regressions. A suite draws cases with
 * fast-check, turns each into stimulus and golden outputs, and is checked on every engine with
 * shrinking and a replayable seed; `gen regress` runs the suites a project's config lists.
 */
export {
  /** Declares a regression suite (name, groups, case arbitrary, design, vectors); erases its case type. */
  defineSuite,
  /** A function computed once, on first use (for a suite's memoized design). */
  once,
  /** A regression suite: the cases it draws and, per case, the design, stimulus and golden outputs. */
  type RegressSuite,
  /** One case's per-cycle stimulus and the outputs the golden model predicts (absent ports are not checked). */
  type CaseVectors,
} from '../verif/regress/suite.ts';
export {
  /** Runs suites on engines (seeded, sharded, on worker threads), shrinks and saves failures. */
  runRegression,
  /** Options of `runRegression`. */
  type RegressionOptions,
  /** One suite on one engine: cases run, failures, time. */
  type SuiteRun,
  /** A failing case: its index, seed, message, replay command and saved folder. */
  type CaseFailure,
} from '../verif/regress/regression.ts';
export {
  /** The printed suite × engine table of a run. */
  summaryTable,
} from '../verif/regress/summary.ts';
export {
  /** Shrinks a failing case on the engine that failed it, within a time limit. */
  shrinkCase,
  /** Regenerates the case at a fast-check path from a seed (what `shrinkCase` found). */
  caseAtPath,
  /** A shrunk failing case with its replay path. */
  type ShrunkCase,
} from '../verif/regress/shrink.ts';
export {
  /** The case a seed draws (case k of a run uses the seed derived from the run seed and k). */
  drawCase,
  /** Runs one case value on an engine and compares it with the golden outputs. */
  checkCase,
} from '../verif/regress/runCases.ts';
export {
  /** The first cycle where outputs differ from the golden ones. */
  firstMismatch,
  /** One-line text of a mismatch: `cycle 3: count = 0x2, golden 0x3`. */
  describeMismatch,
  /** The first differing cycle and its differing ports. */
  type Mismatch,
  /** One differing port: expected and actual values. */
  type PortMismatch,
} from '../verif/regress/compare.ts';
/** fast-check, the property-based testing library suites draw their cases with (the framework's own copy, so its types match). */
export { default as fc } from 'fast-check';
export {
  /** The shard that is the whole run (1/1). */
  WHOLE,
} from '../verif/regress/cases.ts';
export {
  /** Totals of a coverage file: points hit and missed, per suite and overall. */
  coverageTotals,
} from '../verif/regress/coverage/summary.ts';
export {
  /** What a suite's coverage counts: bins of its signals and of its cases (see docs/verification.md). */
  type CoverageSpec,
  /** Bins of one signal's values, sampled in every cycle of every case. */
  type SignalBins,
  /** Bins of a property of each case, computed from the case value. */
  type CaseBins,
  /** Bins 0, 1, 2–3, 4–7, … up to `max`: a power-of-two range per bin. */
  log2Bins,
  /** The cross of coverage goals and cover points (`coverage: { crosses: [cross(a, b)] }`): a bin per combination. */
  cross,
  /** A cross as a suite declares it: name, parts, reasons for bins it may miss. */
  type CrossGoal,
  /** A design's `m.cover` point as a part of a cross (its bin `hit`). */
  type CoverPointPart,
} from '../verif/regress/coverage/spec.ts';
export {
  /** The self-contained HTML coverage page: holes first, then every goal's bins. */
  coverageHtml,
} from '../verif/regress/coverage/coverageHtml.ts';
