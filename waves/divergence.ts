import { UserError } from '../common/errors.ts';
import { cycleAt, cycleEdges, resolveCycles, sampleCycle, sampleCycles, valueAt, type CycleSpec } from './sampling.ts';
import type { Timescale } from './timescale.ts';
import type { VcdChanges, VcdSignal, VcdTrace } from './vcdReader.ts';
import { clampWindow, clockLane, hscaleFor, waveLane, type WaveDromSource, type WaveLane } from './wavedrom.ts';

export interface DivergenceOptions {
  /**
   * Dotted scope prefix removed from every name of A (resp. B) before matching, e.g. `TOP` for
   * Verilator's wrapper scope. When absent, `TOP` is removed from a trace whose every signal lies under it.
   */
  stripA?: string;
  stripB?: string;
  /**
   * `time` (default) compares the traces at every time either one changes (timescales are
   * reconciled), up to the end of the shorter one; `cycle` compares per-cycle samples, for traces
   * on different time bases, up to the fewer cycles.
   */
  align?: 'time' | 'cycle';
  /** How to cut cycles in A and B (to report the cycle, and for `cycle` alignment); a clk/clock signal when absent. */
  cyclesA?: CycleSpec;
  cyclesB?: CycleSpec;
  /** Treat a bit that is x or z in either trace as equal to anything (2-state vs 4-state simulators). */
  xMatchesAnything?: boolean;
}

/** One signal's values in A and B at the divergence. */
export interface SignalDifference {
  /** Matched name (after stripping). */
  readonly name: string;
  readonly a: string;
  readonly b: string;
}

/** The first point where the traces differ. */
export interface Divergence {
  /**
   * In `timescale` units (the finer of the two traces'); under `cycle` alignment, the cycle's edge
   * time in A, or A's end time for what follows the last edge (then `cycle` is the number of edges).
   */
  readonly time: number;
  readonly timescale: Timescale;
  /** The cycle of A it falls in (numbered as the testbench numbers them, see sampling.ts), when A has cycles. */
  readonly cycle?: number;
  /** Every matched signal that differs at that point. */
  readonly differences: readonly SignalDifference[];
}

export interface DivergenceReport {
  /** Signal pairs compared. */
  readonly compared: number;
  readonly onlyInA: readonly string[];
  readonly onlyInB: readonly string[];
  /** Same name, different width or kind: not compared. */
  readonly mismatchedWidths: readonly string[];
  /** Undefined when the compared signals never differ. */
  readonly divergence?: Divergence;
  /**
   * How long each trace is: end times in the finer timescale (`time` alignment) or clock cycles
   * (`cycle` alignment, unit `cycles`, with the fraction of a cycle run past the last edge). The comparison stops at the shorter one, so a trace cut short (a run that
   * died, a full disk) agrees with the prefix of a good one: `coverageProblems` names that.
   */
  readonly length: { readonly unit: string; readonly a: number; readonly b: number };
}

/** What the caller explicitly accepts not being compared. */
export interface CoverageAllowance {
  /** Compare only up to the end of the shorter trace. */
  readonly shorter?: boolean;
  /** Compare only the signals both traces have, with the same width. */
  readonly commonSignals?: boolean;
}

/** Names listed in a message before `and N more`. */
const NAMES_SHOWN = 5;
const someNames = (names: readonly string[]): string =>
  names.length <= NAMES_SHOWN
    ? names.join(', ')
    : `${names.slice(0, NAMES_SHOWN).join(', ')} and ${names.length - NAMES_SHOWN} more`;

/**
 * Why "no divergence" would not mean "the same": traces of different lengths, signals only one
 * trace has, signals of different widths. Empty when the comparison covered both traces whole
 * (or the caller allowed what it skipped).
 */
export function coverageProblems(report: DivergenceReport, allow: CoverageAllowance = {}): string[] {
  const problems: string[] = [];
  const { length } = report;
  if (!allow.shorter && length.a !== length.b)
    problems.push(
      length.unit === 'cycles'
        ? `A has ${length.a} cycles and B ${length.b} (a trace cut short?)`
        : `A ends at ${length.a}${length.unit} and B at ${length.b}${length.unit} (a trace cut short?)`,
    );
  if (!allow.commonSignals) {
    if (report.onlyInA.length > 0) problems.push(`only in A: ${someNames(report.onlyInA)}`);
    if (report.onlyInB.length > 0) problems.push(`only in B: ${someNames(report.onlyInB)}`);
    if (report.mismatchedWidths.length > 0) problems.push(`different widths: ${someNames(report.mismatchedWidths)}`);
  }
  return problems;
}

interface Pair {
  readonly name: string;
  readonly a: VcdSignal;
  readonly b: VcdSignal;
}

/** Finds the first time (or cycle) at which two traces of the same design differ, and every signal differing there. */
export function findDivergence(a: VcdTrace, b: VcdTrace, options: DivergenceOptions = {}): DivergenceReport {
  const namesA = matchNames(a, options.stripA);
  const namesB = matchNames(b, options.stripB);
  const pairs: Pair[] = [];
  const mismatchedWidths: string[] = [];
  for (const [name, signal] of namesA) {
    const other = namesB.get(name);
    if (!other) continue;
    if (other.width !== signal.width || other.kind !== signal.kind) mismatchedWidths.push(name);
    else pairs.push({ name, a: signal, b: other });
  }
  const onlyInA = [...namesA.keys()].filter((name) => !namesB.has(name));
  const onlyInB = [...namesB.keys()].filter((name) => !namesA.has(name));
  const equal = options.xMatchesAnything ? equalIgnoringUnknowns : (x: string, y: string) => x === y;
  const length = options.align === 'cycle' ? cycleLengths(a, b, options) : timeLengths(a, b);
  const divergence =
    options.align === 'cycle'
      ? firstCycleDivergence(a, b, pairs, equal, options, length.a === length.b)
      : firstTimeDivergence(a, b, pairs, equal, options);
  return {
    compared: pairs.length,
    onlyInA,
    onlyInB,
    mismatchedWidths,
    length,
    ...(divergence ? { divergence } : {}),
  };
}

/** The finer of the two timescales, and each trace's factor to it. */
function commonTimescale(a: VcdTrace, b: VcdTrace): { timescale: Timescale; scaleA: number; scaleB: number } {
  const timescale = a.timescale.femtoseconds <= b.timescale.femtoseconds ? a.timescale : b.timescale;
  return {
    timescale,
    scaleA: a.timescale.femtoseconds / timescale.femtoseconds,
    scaleB: b.timescale.femtoseconds / timescale.femtoseconds,
  };
}

function timeLengths(a: VcdTrace, b: VcdTrace): DivergenceReport['length'] {
  const { timescale, scaleA, scaleB } = commonTimescale(a, b);
  const factor = timescale.magnitude;
  return { unit: timescale.unit, a: a.endTime * scaleA * factor, b: b.endTime * scaleB * factor };
}

/**
 * Cycles, plus the part of a cycle the trace runs past its last edge (time after the last edge ÷
 * the last period): a trace cut mid-cycle, or one missing its end time, has the same edges as a
 * whole one but not the same length. Equal rationals divide to equal doubles, so traces on
 * different time bases compare exactly.
 */
function cycleLength(trace: VcdTrace, spec: CycleSpec): number {
  const edges = cycleEdges(trace, spec);
  const last = edges.at(-1);
  if (last === undefined) return 0;
  const period = 'period' in spec ? spec.period : last - (edges.at(-2) ?? 0);
  const tail = trace.endTime - last;
  return edges.length + (period > 0 ? tail / period : tail > 0 ? 1 : 0);
}

function cycleLengths(a: VcdTrace, b: VcdTrace, options: DivergenceOptions): DivergenceReport['length'] {
  return {
    unit: 'cycles',
    a: cycleLength(a, resolveCycles(a, options.cyclesA)),
    b: cycleLength(b, resolveCycles(b, options.cyclesB)),
  };
}

/** Names for matching: full names without the stripped prefix; signals outside the prefix keep their names. */
function matchNames(trace: VcdTrace, strip: string | undefined): Map<string, VcdSignal> {
  const prefix =
    strip ?? (trace.signals.length > 0 && trace.signals.every((signal) => signal.path[0] === 'TOP') ? 'TOP' : '');
  const names = new Map<string, VcdSignal>();
  for (const signal of trace.signals) {
    const name =
      prefix && signal.fullName.startsWith(`${prefix}.`) ? signal.fullName.slice(prefix.length + 1) : signal.fullName;
    if (!names.has(name)) names.set(name, signal);
  }
  return names;
}

function equalIgnoringUnknowns(x: string, y: string): boolean {
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let index = 0; index < x.length; index++) {
    const p = x[index] as string;
    const q = y[index] as string;
    if (p !== q && p !== 'x' && p !== 'z' && q !== 'x' && q !== 'z') return false;
  }
  return true;
}

type Equality = (x: string, y: string) => boolean;

function changesOf(trace: VcdTrace, signal: VcdSignal): VcdChanges {
  return trace.changes.get(signal.id) ?? { times: [], values: [] };
}

/**
 * The first common time (A's times scaled by `scaleA`, B's by `scaleB`), up to `end`, at which the
 * pair differs.
 */
function firstDifferenceTime(
  a: VcdChanges,
  b: VcdChanges,
  scaleA: number,
  scaleB: number,
  end: number,
  initial: string,
  equal: Equality,
): number | undefined {
  let i = 0;
  let j = 0;
  let valueA = initial;
  let valueB = initial;
  while (i < a.times.length || j < b.times.length) {
    const timeA = i < a.times.length ? (a.times[i] as number) * scaleA : Infinity;
    const timeB = j < b.times.length ? (b.times[j] as number) * scaleB : Infinity;
    const time = Math.min(timeA, timeB);
    if (time > end) return undefined;
    if (timeA === time) valueA = a.values[i++] as string;
    if (timeB === time) valueB = b.values[j++] as string;
    if (!equal(valueA, valueB)) return time;
  }
  return undefined;
}

function firstTimeDivergence(
  a: VcdTrace,
  b: VcdTrace,
  pairs: readonly Pair[],
  equal: Equality,
  options: DivergenceOptions,
): Divergence | undefined {
  const { timescale, scaleA, scaleB } = commonTimescale(a, b);
  // Past the end of the shorter trace there is nothing to compare with; its last time stamp
  // often only marks the end (VcdWriter, Icarus), so it counts only when both traces end there.
  const endA = a.endTime * scaleA;
  const endB = b.endTime * scaleB;
  const end = endA === endB ? endA : Math.min(endA, endB) - 1;
  let first = Infinity;
  for (const pair of pairs) {
    const initial = pair.a.kind === 'bits' ? 'x'.repeat(pair.a.width) : 'x';
    const time = firstDifferenceTime(changesOf(a, pair.a), changesOf(b, pair.b), scaleA, scaleB, end, initial, equal);
    if (time !== undefined && time < first) first = time;
  }
  if (first === Infinity) return undefined;
  const differences = pairs
    .map((pair) => ({ name: pair.name, a: valueAt(a, pair.a, first / scaleA), b: valueAt(b, pair.b, first / scaleB) }))
    .filter((difference) => !equal(difference.a, difference.b));
  const edges = optionalEdges(a, options.cyclesA);
  const cycle = edges ? cycleAt(edges, first / scaleA) : undefined;
  return { time: first, timescale, ...(cycle !== undefined && cycle >= 0 ? { cycle } : {}), differences };
}

/**
 * Cycle by cycle, sampling as it goes: memory stays at one cycle's values however long the traces
 * are. When both traces are as long (`sameLength`), what they hold after their last edge (the
 * registers' last update, sampled at the end) is compared too: it belongs to no full cycle, and a
 * trace cut or altered there would otherwise pass.
 */
function firstCycleDivergence(
  a: VcdTrace,
  b: VcdTrace,
  pairs: readonly Pair[],
  equal: Equality,
  options: DivergenceOptions,
  sameLength: boolean,
): Divergence | undefined {
  const edgesA = cycleEdges(a, resolveCycles(a, options.cyclesA));
  const edgesB = cycleEdges(b, resolveCycles(b, options.cyclesB));
  const cycles = Math.min(edgesA.length, edgesB.length) + (sameLength ? 1 : 0);
  for (let cycle = 0; cycle < cycles; cycle++) {
    const differences = pairs
      .map((pair) => ({
        name: pair.name,
        a: sampleCycle(a, edgesA, pair.a, cycle),
        b: sampleCycle(b, edgesB, pair.b, cycle),
      }))
      .filter((difference) => !equal(difference.a, difference.b));
    if (differences.length > 0) return { time: edgesA[cycle] ?? a.endTime, timescale: a.timescale, cycle, differences };
  }
  return undefined;
}

/** Edges of a trace when it has a clock to cut cycles by; undefined when it has none. */
function optionalEdges(trace: VcdTrace, spec: CycleSpec | undefined): number[] | undefined {
  try {
    return cycleEdges(trace, resolveCycles(trace, spec));
  } catch (error) {
    if (error instanceof UserError) return undefined;
    throw error;
  }
}

/** Lanes per picture: a few differing signals stay readable. */
const MAX_PICTURE_SIGNALS = 16;
const PICTURE_MARGIN_CYCLES = 8;

/** WaveDrom of the cycles around a divergence: for each differing signal, lane `A:name` above `B:name`. */
export function divergencePicture(
  a: VcdTrace,
  b: VcdTrace,
  report: DivergenceReport,
  options: DivergenceOptions = {},
): WaveDromSource {
  const divergence = report.divergence;
  if (!divergence) throw new UserError('the traces do not diverge; there is nothing to draw');
  // Undefined when A has no clock edges: draw from cycle 0 then.
  const cycle = divergence.cycle ?? 0;
  const specA = resolveCycles(a, options.cyclesA);
  const specB = resolveCycles(b, options.cyclesB);
  const shown = divergence.differences.slice(0, MAX_PICTURE_SIGNALS);
  const namesA = matchNames(a, options.stripA);
  const namesB = matchNames(b, options.stripB);
  const signalsA = shown.map((difference) => namesA.get(difference.name) as VcdSignal);
  const signalsB = shown.map((difference) => namesB.get(difference.name) as VcdSignal);
  const { from, to } = clampWindow(
    Math.min(cycleEdges(a, specA).length, cycleEdges(b, specB).length),
    Math.max(0, cycle - PICTURE_MARGIN_CYCLES),
    cycle + PICTURE_MARGIN_CYCLES,
  );
  const samplesA = sampleCycles(a, specA, signalsA, { from, to });
  const samplesB = sampleCycles(b, specB, signalsB, { from, to });
  const lanes: WaveLane[] = [];
  shown.forEach((difference, index) => {
    const signalA = signalsA[index] as VcdSignal;
    const signalB = signalsB[index] as VcdSignal;
    lanes.push(waveLane(`A:${difference.name}`, signalA, samplesA.values.get(signalA) as string[]));
    lanes.push(waveLane(`B:${difference.name}`, signalB, samplesB.values.get(signalB) as string[]));
  });
  return {
    signal: [clockLane('clock' in specA ? specA.clock : 'clk', to - from + 1), {}, ...lanes],
    head: {
      text:
        divergence.cycle === undefined
          ? 'first divergence before the first clock edge'
          : `first divergence at cycle ${cycle}`,
      tock: from,
    },
    config: { hscale: hscaleFor(lanes) },
  };
}
