import { createRequire } from 'node:module';
import { FieldError, UserError } from '../common/errors.ts';
import { cycleEdges, resolveCycles, sampleCycles, type CycleSpec } from './sampling.ts';
import { selectSignals } from './signalSelect.ts';
import type { VcdSignal, VcdTrace } from './vcdReader.ts';
import { bitsToHex } from './vcdValues.ts';

/** One WaveDrom lane: `wave` has one character per cycle; `data` labels its `=` slots in order. */
export interface WaveLane {
  name: string;
  wave: string;
  data?: string[];
}

/** A named group of lanes (WaveDrom's `['name', lane, …]`). */
export type WaveGroup = [string, ...(WaveLane | WaveGroup)[]];

/** WaveDrom's JSON input (the subset we produce). */
export interface WaveDromSource {
  signal: (WaveLane | WaveGroup | Record<string, never>)[];
  head?: { text?: string; tock?: number };
  config?: { hscale?: number };
}

/** A window of a trace to draw. */
export interface WaveWindow {
  /** Globs over dotted names (see signalSelect.ts); all signals when absent. */
  patterns?: readonly string[];
  /** First and last cycle drawn (inclusive). */
  fromCycle?: number;
  toCycle?: number;
  /** How cycles are cut; the `clk`/`clock` nearest the top when absent. */
  cycles?: CycleSpec;
  /** Per signal (dotted full name): names of its values by decimal code (enum states), drawn instead of hex. */
  valueNames?: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

/** Pictures beyond these sizes are unreadable and slow to render; ask for a narrower window instead. */
export const MAX_CYCLES = 512;
export const MAX_LANES = 256;
const DEFAULT_CYCLES = 32;

/**
 * One lane for per-cycle samples: 1-bit values as 0/1/x/z, wider ones as `=` slots labelled in
 * hex (x when any bit is unknown, z when all float), '.' where a value repeats.
 */
export function waveLane(
  name: string,
  signal: VcdSignal,
  samples: readonly string[],
  valueNames?: Readonly<Record<string, string>>,
): WaveLane {
  let wave = '';
  const data: string[] = [];
  let previous: string | undefined;
  for (const sample of samples) {
    if (sample === previous) {
      wave += '.';
      continue;
    }
    previous = sample;
    const named =
      valueNames && signal.kind === 'bits' && /^[01]+$/.test(sample)
        ? valueNames[String(BigInt(`0b${sample}`))]
        : undefined;
    if (named !== undefined) {
      wave += '=';
      data.push(named);
    } else if (signal.kind !== 'bits') {
      wave += '=';
      data.push(sample);
    } else if (signal.width === 1) {
      wave += sample;
    } else {
      const hex = bitsToHex(sample);
      if (hex === 'x' || hex === 'z') wave += hex;
      else {
        wave += '=';
        data.push(hex);
      }
    }
  }
  return data.length > 0 ? { name, wave, data } : { name, wave };
}

/** The clock lane: one rising edge per cycle. */
export function clockLane(name: string, cycles: number): WaveLane {
  return { name, wave: `p${'.'.repeat(Math.max(0, cycles - 1))}` };
}

/** Checks a [from, to] cycle window against the trace's cycles and the picture limits. */
export function clampWindow(
  edgeCount: number,
  fromCycle: number | undefined,
  toCycle: number | undefined,
): { from: number; to: number } {
  if (edgeCount === 0) throw new UserError('the trace has no clock edges to cut cycles by');
  const from = fromCycle ?? 0;
  const to = Math.min(toCycle ?? from + DEFAULT_CYCLES - 1, edgeCount - 1);
  if (!Number.isInteger(from) || from < 0 || from >= edgeCount)
    throw new FieldError('fromCycle', `${from} is outside the trace's cycles 0…${edgeCount - 1}`);
  if (to < from) throw new FieldError('toCycle', `${toCycle} is before the first cycle drawn, ${from}`);
  if (to - from + 1 > MAX_CYCLES)
    throw new UserError(`a window of ${to - from + 1} cycles is too wide to draw; at most ${MAX_CYCLES}`);
  return { from, to };
}

/** Lanes nested in groups that follow the scopes (`top` › `dec` › lane), in header order. */
export function groupByScope(entries: readonly { signal: VcdSignal; lane: WaveLane }[]): (WaveLane | WaveGroup)[] {
  const root: (WaveLane | WaveGroup)[] = [];
  const groups = new Map<string, WaveGroup>();
  for (const { signal, lane } of entries) {
    let siblings: (WaveLane | WaveGroup)[] | WaveGroup = root;
    for (let depth = 1; depth <= signal.path.length; depth++) {
      const key = signal.path.slice(0, depth).join('.');
      let group = groups.get(key);
      if (!group) {
        group = [signal.path[depth - 1] as string];
        groups.set(key, group);
        siblings.push(group);
      }
      siblings = group;
    }
    siblings.push(lane);
  }
  return root;
}

/** WaveDrom JSON for a window of a trace: a clock lane, then the selected signals grouped by scope. */
export function traceToWaveDrom(trace: VcdTrace, window: WaveWindow = {}): WaveDromSource {
  const spec = resolveCycles(trace, window.cycles);
  const signals = window.patterns ? selectSignals(trace.signals, window.patterns) : [...trace.signals];
  if (signals.length > MAX_LANES)
    throw new FieldError('patterns', `select ${signals.length} signals, too many to draw; select at most ${MAX_LANES}`);
  const { from, to } = clampWindow(cycleEdges(trace, spec).length, window.fromCycle, window.toCycle);
  const { values } = sampleCycles(trace, spec, signals, { from, to });
  // A clock sampled once per cycle would look constant; draw it (and its aliases) as a clock.
  const clockId = 'clock' in spec ? trace.signals.find((signal) => signal.fullName === spec.clock)?.id : undefined;
  const entries = signals.map((signal) => ({
    signal,
    lane:
      signal.id === clockId
        ? clockLane(signal.name, to - from + 1)
        : waveLane(signal.name, signal, values.get(signal) as string[], window.valueNames?.get(signal.fullName)),
  }));
  const clockName = 'clock' in spec ? spec.clock : `period ${spec.period}`;
  const lanes = entries.map((entry) => entry.lane);
  return {
    signal: [clockLane(clockName, to - from + 1), {}, ...groupByScope(entries)],
    head: { text: `${trace.file}: cycles ${from}–${to}`, tock: from },
    config: { hscale: hscaleFor(lanes) },
  };
}

/** Characters that fit one cycle slot at hscale 1 in the default skin. */
const LABEL_CHARACTERS_PER_SLOT = 4;
const MAX_HSCALE = 8;

/** Widens the slots until the longest hex label fits (a 128-bit bus needs 32 characters). */
export function hscaleFor(lanes: readonly WaveLane[]): number {
  const longest = Math.max(0, ...lanes.flatMap((lane) => (lane.data ?? []).map((label) => label.length)));
  return Math.min(MAX_HSCALE, Math.max(1, Math.ceil(longest / LABEL_CHARACTERS_PER_SLOT)));
}

const require = createRequire(import.meta.url);

interface WaveDromLibrary {
  renderAny(index: number, source: WaveDromSource, skin: unknown): unknown;
}

/** SVG text of a WaveDrom source, drawn by the `wavedrom` library itself (no browser). */
export function renderWaveDromSvg(source: WaveDromSource): string {
  const wavedrom = require('wavedrom') as WaveDromLibrary;
  const skin: unknown = require('wavedrom/skins/default.js');
  const onml = require('onml') as { stringify(tree: unknown): string };
  return onml.stringify(wavedrom.renderAny(0, source, skin));
}

/** PNG bytes of an SVG, drawn at twice its size with the system's fonts (resvg draws no text without fonts). */
export function renderSvgToPng(svg: string): Uint8Array {
  const { Resvg } = require('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
    fitTo: { mode: 'zoom', value: 2 },
  });
  return resvg.render().asPng();
}
