import { UserError } from '../../common/errors.ts';

/**
 * One clock's timing in trace time units (1 ns): it is low from `phase + k·period`, rises at
 * `phase + k·period + period/2` and falls at `phase + (k+1)·period`. The default (period 10,
 * phase 0) is the one-clock time base of every trace: rising edges at 5, 15, 25, …
 */
export interface ClockTiming {
  readonly period: number;
  readonly phase?: number;
}

/** Timings by clock input name (`clk`, `clk_fast`); a clock not named gets DEFAULT_CLOCK_TIMING. */
export type ClockTimings = Readonly<Record<string, ClockTiming>>;

export const DEFAULT_CLOCK_TIMING: ClockTiming = { period: 10, phase: 0 };

/** Trace units per ns: 1 for one clock (the historic 1 ns base), 10 for several. */
export function traceUnitsPerNs(clocks: readonly string[]): number {
  return clocks.length > 1 ? 10 : 1;
}

/** The `$timescale` of a design's traces on every engine. */
export function traceTimescale(clocks: readonly string[]): string {
  return clocks.length > 1 ? '100ps' : '1ns';
}

/**
 * One step of a run (hw/contract/engine.ts, "Several clocks"): at `sample` its inputs are applied and
 * its outputs sampled; at `edge` the clocks whose bit is set in `mask` (bit i: clocks[i]) rise,
 * all at once. Times are in trace units (traceTimescale): ns with one clock or none, 100 ps with
 * several, so every sample point is exactly halfway between two edges.
 */
export interface ClockStep {
  readonly mask: number;
  readonly sample: number;
  readonly edge: number;
}

export interface ClockSchedule {
  readonly steps: readonly ClockStep[];
  /** Where the trace ends: the sample point the step after the last would have. */
  readonly end: number;
}

/** Rejects timings for clocks the design lacks, and periods or phases that are not whole (even) numbers. */
export function checkClockTimings(clocks: readonly string[], timings: ClockTimings | undefined): void {
  for (const [name, timing] of Object.entries(timings ?? {})) {
    if (!clocks.includes(name))
      throw new UserError(
        `no clock '${name}' to time (the design's clocks: ${clocks.length === 0 ? 'none' : clocks.join(', ')})`,
      );
    const { period, phase = 0 } = timing;
    if (!Number.isSafeInteger(period) || period < 2 || period % 2 !== 0)
      throw new UserError(`clock '${name}': period ${String(period)} must be an even whole number of ns, at least 2`);
    if (!Number.isSafeInteger(phase) || phase < 0)
      throw new UserError(`clock '${name}': phase ${String(phase)} must be a whole number of ns, at least 0`);
  }
}

/**
 * The first `count` steps of a run with these clocks: the rising edges of all clocks in time
 * order, simultaneous ones one step. Step i's sample point is halfway back to the previous edge
 * (step 0 samples at 0), so one clock of period 10 samples at 10t and rises at 10t + 5 as the
 * one-clock contract always did (with one clock, halfway is rounded towards the previous edge).
 * A design without clocks steps as one clock of the default timing that drives nothing (mask 0).
 */
export function clockSchedule(
  clocks: readonly string[],
  timings: ClockTimings | undefined,
  count: number,
): ClockSchedule {
  const steps: ClockStep[] = [];
  const stepper = clockSteps(clocks, timings);
  while (steps.length < count) steps.push(stepper.next());
  return { steps, end: stepper.next().sample };
}

/** The same steps one at a time, for runs of unknown length (tracers). */
export function clockSteps(clocks: readonly string[], timings: ClockTimings | undefined): { next(): ClockStep } {
  checkClockTimings(clocks, timings);
  const timing = (clocks.length === 0 ? [''] : clocks).map((name) => timings?.[name] ?? DEFAULT_CLOCK_TIMING);
  const scale = traceUnitsPerNs(clocks);
  const next = timing.map(({ period, phase = 0 }) => (phase + period / 2) * scale);
  let previous: number | undefined;
  return {
    next(): ClockStep {
      const edge = Math.min(...next);
      let mask = 0;
      next.forEach((time, index) => {
        if (time !== edge) return;
        if (clocks.length > 0) mask |= 1 << index;
        next[index] = time + timing[index]!.period * scale;
      });
      const sample = previous === undefined ? 0 : edge - Math.ceil((edge - previous) / 2);
      previous = edge;
      return { mask, sample, edge };
    },
  };
}
