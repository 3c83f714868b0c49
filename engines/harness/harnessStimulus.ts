import { hasPrints } from '../../hw/ir/prints.ts';
import { hasChecks } from '../../hw/contract/checks.ts';
import { UserError, ToolError } from '../../common/errors.ts';
import { clockPortsOf, topModule, type IrDesign } from '../../hw/ir/ir.ts';
import { clockSchedule, type ClockStep, type ClockTimings } from '../../hw/contract/clockSchedule.ts';
import type { PortValues } from '../../hw/contract/engine.ts';
import { PortFrames, wordsOf } from '../../hw/contract/portFrames.ts';
import {
  FRAME_ACK,
  FRAME_OUTPUTS,
  FRAME_OUTPUTS_4,
  OP_BATCH,
  OP_CLOCK_STEP,
  OP_END,
  OP_FRAMES,
  OP_PEEK,
  OP_POKE,
  OP_STEP,
  OP_STREAM,
  OP_WAIT,
  STEP_COMPARE,
  STEP_EXPECT,
  STEP_MASK,
  STEP_SAMPLE,
} from '../../hw/contract/harnessProtocol.ts';

export interface HarnessPort {
  readonly name: string;
  readonly width: number;
}

/** The top's ports as the harness drives and samples them: inputs less the clock, and outputs. */
export interface HarnessPorts {
  readonly top: string;
  readonly inputs: readonly HarnessPort[];
  readonly outputs: readonly HarnessPort[];
  readonly clocked: boolean;
  /** The clock inputs when there are several (`clk` first when clocked) or one named `clk_<domain>`; absent with `clk` alone or none. */
  readonly clocks?: readonly string[];
  /**
   * The design has assertions or printfs: the harness prints `GEN-STREAM` at each stream start and
   * `GEN-CYCLE` at each cycle's sample point (before the edge) on standard output, between the
   * design's GEN-CHECK and GEN-PRINT lines, so engines/harness/checkLog.ts and engines/harness/printLog.ts can tell
   * each line's stream and cycle.
   */
  readonly checked?: boolean;
}

export { wordsOf };

const harnessPorts = new WeakMap<IrDesign, HarnessPorts>();

/** The harness view of a design's top (one object per design, so frames of it share their layout). */
export function harnessPortsOf(design: IrDesign): HarnessPorts {
  let ports = harnessPorts.get(design);
  if (!ports) harnessPorts.set(design, (ports = portsOfTop(design)));
  return ports;
}

function portsOfTop(design: IrDesign): HarnessPorts {
  const top = topModule(design);
  const clocks = clockPortsOf(top);
  const pick = (direction: 'input' | 'output'): HarnessPort[] =>
    top.ports
      .filter((port) => port.direction === direction && !clocks.includes(port.name))
      .map(({ name, width }) => ({ name, width }));
  return {
    top: top.name,
    inputs: pick('input'),
    outputs: pick('output'),
    clocked: top.clocked,
    // A lone named domain's clock (`clk_dst`) is stepped like several: the harness names it.
    ...(clocks.length > 1 || (clocks.length === 1 && !top.clocked) ? { clocks } : {}),
    ...(hasChecks(design) || hasPrints(design) ? { checked: true } : {}),
  };
}

const inputIndexes = new WeakMap<HarnessPorts, ReadonlyMap<string, number>>();

/** The index of an input port and its value, checked (an unknown name or a value too wide is a UserError). */
export function checkedInput(ports: HarnessPorts, name: string, value: bigint, cycle: number): number {
  let indexes = inputIndexes.get(ports);
  if (!indexes) inputIndexes.set(ports, (indexes = new Map(ports.inputs.map((input, index) => [input.name, index]))));
  const index = indexes.get(name) ?? -1;
  if (index < 0)
    throw new UserError(
      `cycle ${cycle}: ${ports.top} has no input '${name}' (inputs: ${ports.inputs.map((input) => input.name).join(', ') || 'none'})`,
    );
  const port = ports.inputs[index]!;
  if (typeof value !== 'bigint' || value < 0n || value >> BigInt(port.width) !== 0n)
    throw new UserError(
      `cycle ${cycle}: value ${String(value)} for '${name}' does not fit in ${port.width} unsigned bits`,
    );
  return index;
}

/** Commands being put together, sent as one buffer (format at the top of this file). */
export class HarnessCommands {
  private words = new Uint32Array(1024);
  private length = 0;

  constructor(private readonly ports: HarnessPorts) {}

  private reserve(count: number): void {
    if (this.length + count <= this.words.length) return;
    let size = this.words.length * 2;
    while (size < this.length + count) size *= 2;
    const grown = new Uint32Array(size);
    grown.set(this.words.subarray(0, this.length));
    this.words = grown;
  }

  stream(): void {
    this.reserve(1);
    this.words[this.length++] = OP_STREAM;
  }

  poke(index: number, value: bigint): void {
    const count = wordsOf(this.ports.inputs[index]!.width);
    this.reserve(1 + count);
    const { words } = this;
    words[this.length++] = OP_POKE | (index << 8);
    if (count === 1) words[this.length++] = Number(value);
    else
      for (let word = 0; word < count; word++)
        words[this.length++] = Number((value >> BigInt(32 * word)) & 0xffffffffn);
  }

  /** OP_POKE of an input whose words are `count` words of `source` from `at` (a stream's frames). */
  pokeWords(index: number, source: Uint32Array, at: number, count: number): void {
    this.reserve(1 + count);
    this.words[this.length++] = OP_POKE | (index << 8);
    for (let word = 0; word < count; word++) this.words[this.length++] = source[at + word]!;
  }

  peek(): void {
    this.reserve(1);
    this.words[this.length++] = OP_PEEK;
  }

  /** The header of OP_FRAMES: `count` input frames follow (written by the caller). */
  frames(count: number, flags: number): void {
    this.reserve(2);
    this.words[this.length++] = OP_FRAMES | (flags << 8);
    this.words[this.length++] = count;
  }

  /** One plain word (the limit of a compare). */
  word(value: number): void {
    this.reserve(1);
    this.words[this.length++] = value;
  }

  step(cycles: number, flags: number): void {
    this.reserve(2);
    this.words[this.length++] = OP_STEP | (flags << 8);
    this.words[this.length++] = cycles;
  }

  /** OP_WAIT: until the outputs equal `value` where `mask` has ones (frames of the top's outputs), at most `limit` cycles. */
  wait(limit: number, value: Uint32Array, mask: Uint32Array): void {
    this.reserve(2 + value.length + mask.length);
    this.words[this.length++] = OP_WAIT;
    this.words[this.length++] = limit;
    this.words.set(value, this.length);
    this.length += value.length;
    this.words.set(mask, this.length);
    this.length += mask.length;
  }

  clockStep(step: ClockStep, next: number, flags: number): void {
    this.reserve(8);
    const { words } = this;
    words[this.length++] = OP_CLOCK_STEP | (flags << 8);
    words[this.length++] = step.mask;
    for (const time of [step.sample, step.edge, next]) {
      words[this.length++] = time % 0x100000000;
      words[this.length++] = Math.floor(time / 0x100000000);
    }
  }

  end(): void {
    this.reserve(1);
    this.words[this.length++] = OP_END;
  }

  get empty(): boolean {
    return this.length === 0;
  }

  /** The commands so far as bytes; the list starts empty again. */
  take(): Buffer {
    const bytes = Buffer.from(this.words.buffer, 0, this.length * 4);
    this.words = new Uint32Array(1024);
    this.length = 0;
    return bytes;
  }
}

/**
 * The commands of whole streams (their input frames, portFrames.ts), each from reset, with an
 * outputs frame per cycle, as the pieces to write in order. With `frames` (a harness that takes
 * OP_FRAMES, one clock or none) each stream is one OP_FRAMES whose frames are the stream's own
 * words, not copied. Otherwise an input is poked only in the cycles its words change, and runs of
 * cycles that change nothing are one step command (with several clocks, one OP_CLOCK_STEP per step
 * of the clock schedule).
 */
export function streamCommands(
  ports: HarnessPorts,
  streams: readonly PortFrames[],
  options: { readonly timings?: ClockTimings; readonly frames?: boolean } = {},
): Buffer[] {
  const commands = new HarnessCommands(ports);
  const clocks = ports.clocks;
  const parts: Buffer[] = [];
  if (options.frames && !clocks) {
    for (const frames of streams) {
      commands.stream();
      commands.frames(frames.cycles, STEP_SAMPLE);
      const { words } = frames;
      parts.push(commands.take(), Buffer.from(words.buffer, words.byteOffset, words.byteLength));
    }
    commands.end();
    parts.push(commands.take());
    return parts;
  }
  const longest = Math.max(0, ...streams.map((stream) => stream.cycles));
  const schedule = clockSchedule(clocks ?? [], options.timings, clocks ? longest : 0);
  const { steps } = schedule;
  const clockStep = clocks
    ? (cycle: number): void =>
        commands.clockStep(
          steps[cycle]!,
          cycle + 1 < steps.length ? steps[cycle + 1]!.sample : schedule.end,
          STEP_SAMPLE,
        )
    : undefined;
  for (const frames of streams) {
    commands.stream();
    frameCommands(commands, ports, frames, new Uint32Array(frames.stride), clockStep);
  }
  commands.end();
  return [commands.take()];
}

/**
 * The commands of `frames` (input frames, portFrames.ts), an outputs frame per cycle: an input is
 * poked only in the cycles its words differ from `current` (the inputs as the harness holds them,
 * updated to the last frame's), and runs of cycles that change nothing are one OP_STEP; with
 * several clocks, `clockStep(cycle)` puts each cycle's OP_CLOCK_STEP instead.
 */
export function frameCommands(
  commands: HarnessCommands,
  ports: HarnessPorts,
  frames: PortFrames,
  current: Uint32Array,
  clockStep?: (cycle: number) => void,
): void {
  const counts = Uint32Array.from(ports.inputs, (port) => wordsOf(port.width));
  const { words, stride } = frames;
  let pending = 0;
  for (let cycle = 0; cycle < frames.cycles; cycle++) {
    const base = cycle * stride;
    let at = 0;
    for (let input = 0; input < counts.length; input++) {
      const count = counts[input]!;
      let word = 0;
      while (word < count && words[base + at + word] === current[at + word]) word++;
      if (word < count) {
        if (pending > 0) commands.step(pending, STEP_SAMPLE);
        pending = 0;
        for (word = 0; word < count; word++) current[at + word] = words[base + at + word]!;
        commands.pokeWords(input, words, base + at, count);
      }
      at += count;
    }
    if (clockStep) clockStep(cycle);
    else pending++;
  }
  if (pending > 0) commands.step(pending, STEP_SAMPLE);
}

/**
 * The commands of Engine.compare through files (STEP_COMPARE, format at the top of this file): per
 * stream one OP_FRAMES of its input frames, then its expected frames and mask when it has them
 * (a digest is compared by the caller with the verdict's), all as they are in memory, not copied.
 */
export function compareCommands(
  ports: HarnessPorts,
  streams: readonly {
    readonly inputs: PortFrames;
    readonly expected: { readonly frames?: PortFrames; readonly mask?: PortFrames } | { readonly digest: string };
  }[],
  limit: number,
): Buffer[] {
  const commands = new HarnessCommands(ports);
  const parts: Buffer[] = [];
  const bytes = (frames: PortFrames): Buffer =>
    Buffer.from(frames.words.buffer, frames.words.byteOffset, frames.words.byteLength);
  for (const { inputs, expected } of streams) {
    const frames = 'frames' in expected ? expected.frames : undefined;
    const mask = 'mask' in expected ? expected.mask : undefined;
    commands.stream();
    commands.frames(inputs.cycles, STEP_COMPARE | (frames ? STEP_EXPECT : 0) | (mask ? STEP_MASK : 0));
    commands.word(limit);
    parts.push(commands.take(), bytes(inputs));
    if (frames) parts.push(bytes(frames));
    if (mask) parts.push(bytes(mask));
  }
  commands.end();
  parts.push(commands.take());
  return parts;
}

/** The OP_BATCH command of a served harness for a batch through `files` (format at the top of this file). */
export function batchCommand(files: {
  readonly commands: string;
  readonly frames: string;
  readonly log: string;
}): Buffer {
  const text = Buffer.from(`${files.commands}\0${files.frames}\0${files.log}\0`, 'utf8');
  const padded = Buffer.alloc(8 + Math.ceil(text.length / 4) * 4);
  padded.writeUInt32LE(OP_BATCH, 0);
  padded.writeUInt32LE(text.length, 4);
  text.copy(padded, 8);
  return padded;
}

/** What a harness's standard output gives, in order. */
export interface FrameHandlers {
  /** An outputs frame: its words start at `offset` in `bytes` (pairs when `fourState`). */
  outputs(bytes: Buffer, offset: number, fourState: boolean): void;
  ack(cycle: number): void;
  /** A text line of the simulator (without its newline). */
  line(text: string): void;
}

/**
 * Splits a harness's standard output into frames and text lines, chunk by chunk (frames may
 * straddle chunks). `outputWords` is the words of one 2-state outputs frame.
 */
export class FrameReader {
  private rest: Buffer | undefined;

  constructor(
    private readonly tool: string,
    private readonly outputWords: number,
    private readonly handlers: FrameHandlers,
  ) {}

  feed(chunk: Buffer): void {
    let bytes = chunk;
    if (this.rest) {
      bytes = Buffer.concat([this.rest, chunk]);
      this.rest = undefined;
    }
    let at = 0;
    const end = bytes.length;
    const two = 4 + this.outputWords * 4;
    const four = 4 + this.outputWords * 8;
    while (at < end) {
      if (bytes[at] !== 0) {
        const newline = bytes.indexOf(10, at);
        if (newline < 0) break;
        this.handlers.line(bytes.toString('latin1', at, newline));
        at = newline + 1;
        continue;
      }
      if (end - at < 4) break;
      const header = bytes.readUInt32LE(at);
      if (header === FRAME_OUTPUTS) {
        if (end - at < two) break;
        this.handlers.outputs(bytes, at + 4, false);
        at += two;
      } else if (header === FRAME_OUTPUTS_4) {
        if (end - at < four) break;
        this.handlers.outputs(bytes, at + 4, true);
        at += four;
      } else if (header === FRAME_ACK) {
        if (end - at < 8) break;
        this.handlers.ack(bytes.readUInt32LE(at + 4));
        at += 8;
      } else throw new ToolError(this.tool, `harness wrote an unknown frame 0x${header.toString(16)}`);
    }
    if (at < end) this.rest = Buffer.from(bytes.subarray(at));
  }

  /** Bytes of an unfinished frame or line at the end of the output (0 when it ended cleanly). */
  get leftover(): number {
    return this.rest?.length ?? 0;
  }
}

/**
 * Copies one outputs frame into frame `cycle` of `target` (a run's output frames, portFrames.ts):
 * 2-state frames byte for byte, 4-state ones (Icarus) value words only, after checking that no
 * bit is unknown (an X or Z is a ToolError naming the output, never read as 0).
 */
export function storeOutputs(
  tool: string,
  target: PortFrames,
  cycle: number,
  bytes: Buffer,
  offset: number,
  fourState: boolean,
): void {
  const { words, stride } = target;
  const at = cycle * stride;
  if (!fourState) {
    for (let word = 0; word < stride; word++) words[at + word] = bytes.readUInt32LE(offset + 4 * word);
    return;
  }
  let from = offset;
  let to = at;
  for (const port of target.ports) {
    const count = wordsOf(port.width);
    let unknown = 0;
    for (let word = 0; word < count; word++) unknown |= bytes.readUInt32LE(from + word * 8 + 4);
    if (unknown !== 0)
      throw new ToolError(
        tool,
        `output '${port.name}' has unknown bits (${fourStateHex(bytes, from, port.width)}); a register or memory was never initialized`,
      );
    for (let word = 0; word < count; word++) words[to++] = bytes.readUInt32LE(from + word * 8);
    from += count * 8;
  }
}

/** Decodes one outputs frame into port values; an unknown bit (Icarus X or Z) is a ToolError. */
export function decodeOutputs(
  tool: string,
  outputs: readonly HarnessPort[],
  bytes: Buffer,
  offset: number,
  fourState: boolean,
): PortValues {
  const frame = PortFrames.empty(outputs, 1);
  storeOutputs(tool, frame, 0, bytes, offset, fourState);
  return frame.row(0);
}

/**
 * A 4-state value as Verilog's %h prints it: per hex digit `x` or `z` when all its bits are,
 * `X` or `Z` when some are, else the digit.
 */
export function fourStateHex(bytes: Buffer, offset: number, width: number): string {
  let text = '';
  for (let digit = Math.ceil(width / 4) - 1; digit >= 0; digit--) {
    const word = offset + Math.floor(digit / 8) * 8;
    const shift = (digit % 8) * 4;
    const bits = Math.min(4, width - digit * 4);
    const mask = (1 << bits) - 1;
    const value = (bytes.readUInt32LE(word) >>> shift) & mask;
    const unknown = (bytes.readUInt32LE(word + 4) >>> shift) & mask;
    if (unknown === 0) text += value.toString(16);
    else if (unknown === mask) text += value === mask ? 'x' : value === 0 ? 'z' : 'X';
    else text += (value & unknown) !== 0 ? 'X' : 'Z';
  }
  return text;
}
