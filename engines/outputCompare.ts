import { UserError } from '../common/errors.ts';
import type { CheckResults } from '../hw/contract/checks.ts';
import type { IrDesign } from '../hw/ir/ir.ts';
import type {
  BatchResult,
  BatchSink,
  CompareOptions,
  CycleRun,
  ExpectedOutputs,
  ExpectedStream,
  OutputMismatch,
  OutputVerdict,
  Stimulus,
} from '../hw/contract/engine.ts';
import { harnessPortsOf, type HarnessPorts } from './harness/harnessStimulus.ts';
import { PortFrames, stimulusFrames, type FramePort, type PortValues } from '../hw/contract/portFrames.ts';

/** A batch's compare sink (hw/contract/engine.ts, BatchSink). */
export type CompareSink = Extract<BatchSink, { readonly kind: 'compare' }>;

/** Mismatches a verdict lists by default. */
export const DEFAULT_MISMATCHES = 8;

/** FNV-1a's offset basis and prime (32-bit), which the Verilator harness's in-process compare uses too. */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/**
 * The digest of output frames: FNV-1a over their 32-bit words in order, 8 hex digits — the checksum bench/nativeHarness.ts
 * folds in C++ and the Verilator harness computes in Engine.compare.
 */
export function outputDigest(frames: PortFrames): string {
  return digestHex(digestWords(frames.words));
}

/** FNV-1a over `words`, continued from the hash `from` (a digest over several streams folds them in turn). */
export function digestWords(words: Uint32Array, from = FNV_OFFSET): number {
  let hash = from;
  for (let index = 0; index < words.length; index++) hash = Math.imul(hash ^ words[index]!, FNV_PRIME) >>> 0;
  return hash;
}

/** A folded hash as a digest: 8 lowercase hex digits. */
export const digestHex = (hash: number): string => hash.toString(16).padStart(8, '0');

/** An output's place in a frame and the mask word of its top word, found once per port list. */
interface ExpectedSlot {
  readonly at: number;
  readonly words: number;
  readonly width: number;
  /** The port's value limit when it fits one word (a number compare, no bigint shift per value). */
  readonly limit: bigint;
  readonly topMask: number;
}

const expectedSlots = new WeakMap<readonly FramePort[], ReadonlyMap<string, ExpectedSlot>>();

function expectedSlotsOf(outputs: readonly FramePort[]): ReadonlyMap<string, ExpectedSlot> {
  let slots = expectedSlots.get(outputs);
  if (slots) return slots;
  const frame = PortFrames.empty(outputs, 0);
  slots = new Map(
    outputs.map((port) => {
      const { at, words } = frame.slotOf(port.name);
      const topMask = port.width % 32 !== 0 ? 2 ** (port.width % 32) - 1 : -1;
      return [port.name, { at, words, width: port.width, limit: 1n << BigInt(port.width), topMask }];
    }),
  );
  expectedSlots.set(outputs, slots);
  return slots;
}

/**
 * Expected frames and their mask from golden per-cycle values that name only the ports they
 * predict (regressions' CaseVectors.expected): a port a cycle leaves out is not compared in it.
 */
export function expectedFrames(design: IrDesign, rows: readonly PortValues[]): ExpectedOutputs {
  const ports = harnessPortsOf(design);
  const slots = expectedSlotsOf(ports.outputs);
  const frames = PortFrames.empty(ports.outputs, rows.length);
  const mask = PortFrames.empty(ports.outputs, rows.length);
  const { stride } = frames;
  const values = frames.words;
  const bits = mask.words;
  let complete = true;
  for (let cycle = 0; cycle < rows.length; cycle++) {
    const row = rows[cycle]!;
    const base = cycle * stride;
    let present = 0;
    // One lookup per named port; a one-word value in range is stored as a number, anything else
    // (a wide port, a bad value, an unknown name) takes the checked path, which words the error.
    for (const name in row) {
      const slot = slots.get(name);
      if (!slot) return expectedFramesChecked(ports, rows, cycle);
      const value = row[name];
      if (value === undefined) continue;
      const at = base + slot.at;
      if (slot.words === 1 && typeof value === 'bigint' && value >= 0n && value < slot.limit) {
        values[at] = Number(value);
        bits[at] = slot.topMask;
      } else {
        if (!fits(slot, value)) return expectedFramesChecked(ports, rows, cycle);
        frames.set(cycle, name, value);
        for (let word = 0; word < slot.words; word++) bits[at + word] = word === slot.words - 1 ? slot.topMask : -1;
      }
      present++;
    }
    if (present !== ports.outputs.length) complete = false;
  }
  return complete ? { frames } : { frames, mask };
}

const fits = (slot: ExpectedSlot, value: bigint | number): boolean =>
  typeof value === 'bigint'
    ? value >= 0n && value < slot.limit
    : Number.isInteger(value) && value >= 0 && value < 2 ** slot.width;

/** expectedFrames' port-by-port path from `cycle` on: the first bad value or unknown port of that row, as a UserError. */
function expectedFramesChecked(ports: HarnessPorts, rows: readonly PortValues[], cycle: number): never {
  const frames = PortFrames.empty(ports.outputs, rows.length);
  const row = rows[cycle]!;
  for (const port of ports.outputs) if (row[port.name] !== undefined) frames.set(cycle, port.name, row[port.name]!);
  const unknown = Object.keys(row).find((name) => !ports.outputs.some((port) => port.name === name))!;
  throw new UserError(
    `cycle ${cycle}: ${ports.top} has no output '${unknown}' (outputs: ${ports.outputs.map((port) => port.name).join(', ') || 'none'})`,
  );
}

/**
 * Checks an expectation against the top's outputs and the stimulus's length: frames (and a mask)
 * of other ports or of another number of cycles, or a digest that is not 8 hex digits, is a
 * UserError naming the stream.
 */
export function checkExpectation(ports: HarnessPorts, expected: ExpectedOutputs, cycles: number, stream: number): void {
  const where = `stream ${stream}`;
  if ('digest' in expected) {
    if (typeof expected.digest !== 'string' || !/^[0-9a-f]{8}$/.test(expected.digest))
      throw new UserError(
        `${where}: the expected digest ${JSON.stringify(expected.digest)} is not 8 lowercase hex digits (outputDigest)`,
      );
    return;
  }
  for (const [what, frames] of [
    ['expected frames', expected.frames],
    ['mask frames', expected.mask],
  ] as const) {
    if (frames === undefined) continue;
    if (!(frames instanceof PortFrames))
      throw new UserError(
        `${where}: the ${what} are not PortFrames (build them with expectedFrames or PortFrames.empty)`,
      );
    if (!samePorts(frames.ports, ports.outputs))
      throw new UserError(
        `${where}: the ${what} are of ports ${describePorts(frames.ports)} (${frames.stride} words a frame), but ${ports.top} has outputs ${describePorts(ports.outputs)} (${PortFrames.empty(ports.outputs, 0).stride} words a frame)`,
      );
    if (frames.cycles !== cycles)
      throw new UserError(`${where}: the ${what} hold ${frames.cycles} cycles, the stimulus ${cycles}`);
  }
}

const samePorts = (a: readonly FramePort[], b: readonly FramePort[]): boolean =>
  a === b ||
  (a.length === b.length && a.every((port, index) => port.name === b[index]!.name && port.width === b[index]!.width));

const describePorts = (ports: readonly FramePort[]): string =>
  ports.length === 0 ? '(none)' : ports.map((port) => `${port.name}[${port.width}]`).join(', ');

/**
 * The verdict on a stream's output frames, compared in this process (the ts engine, Icarus, and
 * Verilator with several clocks): the same verdict the Verilator harness gives.
 */
export function compareOutputs(
  actual: PortFrames,
  expected: ExpectedOutputs,
  limit: number,
  checks?: CheckResults,
): OutputVerdict {
  const digest = outputDigest(actual);
  const extra = checks ? { checks } : {};
  if ('digest' in expected)
    return {
      equal: digest === expected.digest,
      cycles: actual.cycles,
      digest,
      mismatchCount: 0,
      mismatches: [],
      ...extra,
    };
  const { stride, ports } = actual;
  const got = actual.words;
  const want = expected.frames.words;
  const mask = expected.mask?.words;
  const slots = ports.map((port) => ({ port, ...actual.slotOf(port.name) }));
  let mismatchCount = 0;
  const mismatches: OutputMismatch[] = [];
  for (let cycle = 0; cycle < actual.cycles; cycle++) {
    const base = cycle * stride;
    let differs = 0;
    for (let word = 0; word < stride; word++)
      differs |= (got[base + word]! ^ want[base + word]!) & (mask ? mask[base + word]! : -1);
    if (differs === 0) continue;
    for (const slot of slots) {
      let bad = 0;
      for (let word = 0; word < slot.words; word++) {
        const at = base + slot.at + word;
        bad |= (got[at]! ^ want[at]!) & (mask ? mask[at]! : -1);
      }
      if (bad === 0) continue;
      mismatchCount++;
      if (mismatches.length < limit) mismatches.push(mismatchAt(actual, expected, cycle, slot.port.name));
    }
  }
  return { equal: mismatchCount === 0, cycles: actual.cycles, digest, mismatchCount, mismatches, ...extra };
}

/** A mismatch's values: what the expected frames and the mask say, and the port's value in `actual`. */
export function mismatchAt(
  actual: PortFrames | bigint,
  expected: { readonly frames: PortFrames; readonly mask?: PortFrames },
  cycle: number,
  port: string,
): OutputMismatch {
  const width = expected.frames.ports.find((each) => each.name === port)!.width;
  const ones = (1n << BigInt(width)) - 1n;
  const mask = expected.mask ? expected.mask.value(cycle, port) : ones;
  const value = typeof actual === 'bigint' ? actual : actual.value(cycle, port);
  return { cycle, port, width, expected: expected.frames.value(cycle, port) & mask, actual: value, mask };
}

/** One line for a mismatch: `cycle 7, port count: expected 0x5, got 0x6` (with the mask when not every bit is compared). */
export function describeOutputMismatch(mismatch: OutputMismatch): string {
  const hex = (value: bigint): string => `0x${value.toString(16)}`;
  const all = mismatch.mask === (1n << BigInt(mismatch.width)) - 1n;
  return `cycle ${mismatch.cycle}, port ${mismatch.port}: expected ${hex(mismatch.expected)}, got ${hex(mismatch.actual)}${all ? '' : ` (compared bits ${hex(mismatch.mask)})`}`;
}

/** The streams of Engine.compare with their inputs as frames, every expectation checked (checkExpectation). */
export function expectedStreams(
  ports: HarnessPorts,
  streams: readonly ExpectedStream[],
): { readonly inputs: PortFrames; readonly expected: ExpectedOutputs }[] {
  return streams.map((stream, index) => {
    const inputs = stimulusFrames(ports, stream.inputs);
    checkExpectation(ports, stream.expected, inputs.cycles, index);
    return { inputs, expected: stream.expected };
  });
}

/** The mismatches a verdict lists (CompareOptions.mismatches or a compare sink's, checked). */
export function mismatchLimit(options: Pick<CompareOptions, 'mismatches'>): number {
  const limit = options.mismatches ?? DEFAULT_MISMATCHES;
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > 0xffff)
    throw new UserError(`compare: mismatches must be a whole number from 0 to 65535, got ${String(limit)}`);
  return limit;
}

/** The streams of a compare sink paired with their expectations, checked (expectedStreams). */
export function comparedStreams(
  ports: HarnessPorts,
  streams: readonly Stimulus[],
  sink: CompareSink,
): { readonly inputs: PortFrames; readonly expected: ExpectedOutputs }[] {
  if (sink.expected.length !== streams.length)
    throw new UserError(`compare: ${sink.expected.length} expectations for ${streams.length} streams`);
  return expectedStreams(
    ports,
    streams.map((inputs, index) => ({ inputs, expected: sink.expected[index]! })),
  );
}

/**
 * A batch's sink served by collecting: the streams run as a collected batch (`collect`), and for
 * a compare or digest sink their output frames are compared or digested in this process, the
 * verdicts and digests the Verilator harness folds in C++ (the ts engine in lanes or traced,
 * Icarus, Verilator with several clocks or traced).
 */
export async function foldCollected<Sink extends BatchSink>(
  ports: HarnessPorts,
  streams: readonly Stimulus[],
  sink: Sink,
  collect: (streams: readonly Stimulus[]) => Promise<CycleRun[]>,
): Promise<BatchResult<Sink>> {
  if (sink.kind === 'collect') return (await collect(streams)) as BatchResult<Sink>;
  if (sink.kind === 'digest')
    return (await collect(streams)).map((run) => outputDigest(run.frames)) as BatchResult<Sink>;
  const checked = comparedStreams(ports, streams, sink as CompareSink);
  const limit = mismatchLimit(sink as CompareSink);
  const runs = await collect(checked.map((stream) => stream.inputs));
  return runs.map((run, index) =>
    compareOutputs(run.frames, checked[index]!.expected, limit, run.checks),
  ) as BatchResult<Sink>;
}
