import { UserError } from '../common/errors.ts';
import type { VcdChanges, VcdSignal, VcdTrace } from './vcdReader.ts';
import { unknownBits } from './vcdValues.ts';

/**
 * How a trace is cut into cycles: by the rising edges of a clock signal, or by a fixed period
 * (edges at `offset + k·period`, in trace time units). Cycle k is numbered as the testbench numbers
 * it: the interval that ends at edge k (from edge k-1, or the start, up to edge k); its sample is
 * the value just before edge k — the inputs applied in cycle k and the outputs the testbench
 * sampled in cycle k (for registers: what they took at edge k-1). A trace has as many cycles as
 * edges; what follows the last edge belongs to no cycle.
 */
export type CycleSpec = { readonly clock: string } | { readonly period: number; readonly offset?: number };

/** The signal with this dotted full name (e.g. `tb.dut.cnt`). */
export function findSignal(trace: VcdTrace, fullName: string): VcdSignal {
  const signal = trace.signals.find((candidate) => candidate.fullName === fullName);
  if (!signal) throw new UserError(`${trace.file}: no signal named ${fullName}`);
  return signal;
}

function changesOf(trace: VcdTrace, signal: VcdSignal): VcdChanges {
  const changes = trace.changes.get(signal.id);
  if (!changes) throw new Error(`changes of ${signal.fullName} were not kept when ${trace.file} was read`);
  return changes;
}

/** Index of the last change at or before `time` (strictly before when `strict`), or -1. */
function lastChangeIndex(times: readonly number[], time: number, strict: boolean): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = times[middle] as number;
    if (strict ? at < time : at <= time) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** The value once every change at `time` has happened (x before the first change). */
export function valueAt(trace: VcdTrace, signal: VcdSignal, time: number): string {
  const { values, times } = changesOf(trace, signal);
  return values[lastChangeIndex(times, time, false)] ?? initialValue(signal);
}

/** The value just before `time`: what an edge at `time` samples. */
export function valueBefore(trace: VcdTrace, signal: VcdSignal, time: number): string {
  const { values, times } = changesOf(trace, signal);
  return values[lastChangeIndex(times, time, true)] ?? initialValue(signal);
}

function initialValue(signal: VcdSignal): string {
  return signal.kind === 'bits' ? unknownBits(signal.width) : 'x';
}

/** Times at which a 1-bit signal becomes 1 from anything else. */
export function risingEdges(trace: VcdTrace, clock: VcdSignal): number[] {
  if (clock.width !== 1 || clock.kind !== 'bits')
    throw new UserError(`${trace.file}: clock ${clock.fullName} is not a 1-bit signal`);
  const { times, values } = changesOf(trace, clock);
  const edges: number[] = [];
  for (let index = 0; index < values.length; index++) {
    if (values[index] === '1' && values[index - 1] !== '1') edges.push(times[index] as number);
  }
  return edges;
}

/** A period that would cut more cycles than this is a mistake (and would exhaust memory). */
const MAX_PERIOD_CYCLES = 50_000_000;

/** The edge times that end each cycle. */
export function cycleEdges(trace: VcdTrace, spec: CycleSpec): number[] {
  if ('clock' in spec) return risingEdges(trace, findSignal(trace, spec.clock));
  const { period, offset = 0 } = spec;
  if (!Number.isSafeInteger(period) || period <= 0)
    throw new UserError(`clock period must be a positive integer, got ${period}`);
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new UserError(`clock offset must be a non-negative integer, got ${offset}`);
  if ((trace.endTime - offset) / period > MAX_PERIOD_CYCLES)
    throw new UserError(`a period of ${period} cuts ${trace.file} into more than ${MAX_PERIOD_CYCLES} cycles`);
  const edges: number[] = [];
  for (let time = offset; time <= trace.endTime; time += period) edges.push(time);
  return edges;
}

/** The sample of one cycle (see CycleSpec): the value just before its edge. */
export function sampleCycle(trace: VcdTrace, edges: readonly number[], signal: VcdSignal, cycle: number): string {
  const edge = edges[cycle];
  return edge === undefined ? valueAt(trace, signal, trace.endTime) : valueBefore(trace, signal, edge);
}

/**
 * Per-cycle samples of `signals` for cycles `from` … `to` (all by default): `values.get(s)[i]`
 * is the sample of cycle `from + i`.
 */
export function sampleCycles(
  trace: VcdTrace,
  spec: CycleSpec,
  signals: readonly VcdSignal[],
  window: { from?: number; to?: number } = {},
): { edges: number[]; values: Map<VcdSignal, string[]> } {
  const edges = cycleEdges(trace, spec);
  const from = window.from ?? 0;
  const to = Math.min(window.to ?? edges.length - 1, edges.length - 1);
  const values = new Map<VcdSignal, string[]>();
  for (const signal of signals) {
    const samples: string[] = [];
    for (let cycle = from; cycle <= to; cycle++) samples.push(sampleCycle(trace, edges, signal, cycle));
    values.set(signal, samples);
  }
  return { edges, values };
}

/** The cycle containing `time`: the number of edges at or before it (`edges.length` after the last edge). */
export function cycleAt(edges: readonly number[], time: number): number {
  return lastChangeIndex(edges, time, false) + 1;
}

/** A clock to cut cycles by when the user named none: the 1-bit `clk`/`clock` nearest the top. */
export function guessClock(trace: VcdTrace): string | undefined {
  const candidates = trace.signals.filter((signal) => signal.width === 1 && /^(clk|clock)$/i.test(signal.name));
  candidates.sort((a, b) => a.path.length - b.path.length || a.fullName.localeCompare(b.fullName));
  return candidates[0]?.fullName;
}

/** The cycle spec to use: the one given, else the guessed clock, else a UserError. */
export function resolveCycles(trace: VcdTrace, cycles: CycleSpec | undefined): CycleSpec {
  if (cycles) return cycles;
  const clock = guessClock(trace);
  if (clock === undefined)
    throw new UserError(`${trace.file}: no clk/clock signal found; name the clock or give a clock period`);
  return { clock };
}
