import { hasPrints } from '../../hw/ir/prints.ts';
import { hasChecks } from '../../hw/ir/checks.ts';
import { UserError, ToolError } from '../../common/errors.ts';
import { clockPortsOf, topModule, type IrDesign } from '../../hw/ir/ir.ts';
import { clockSchedule, type ClockStep, type ClockTimings } from '../../hw/sim/clockSchedule.ts';
import type { PortValues } from '../engine.ts';
import { PortFrames, wordsOf } from '../portFrames.ts';

/**
 * The one binary protocol between the engines and their external simulator harnesses (the
 * Verilator C++ main of verilatorHarness.ts, the Icarus testbench of icarusTestbench.ts), for
 * interactive sessions and batch runs alike: a batch run is a session that sends all its commands
 * at once and never waits. Every field is a little-endian 32-bit word; ports are numbered in
 * HarnessPorts order (inputs less the clock; outputs), values are their words least significant
 * first (`ceil(width / 32)` words).
 *
 * Commands (standard input of the harness), a header word `op | argument << 8`, then its words:
 *   OP_STREAM         a new stream: all state 0, inputs 0 (the first stream is the traced one);
 *   OP_POKE  index    the input's words follow; applied now, kept until poked again;
 *   OP_PEEK           settle, then write one outputs frame (the current cycle's `before_edge`);
 *   OP_STEP  flags    a count word follows: that many cycles of the step contract (engine.ts),
 *                     with STEP_SAMPLE an outputs frame per cycle at its sample point, with
 *                     STEP_ACK an ack frame after the last, with STEP_PEEK then the outputs
 *                     frame OP_PEEK would write next (a session's peek after a step needs no
 *                     round trip of its own);
 *   OP_WAIT  flags    a limit word, then a value frame and a mask frame (outputs frames without
 *                     header): settle and sample as OP_PEEK does; while some masked bit of the
 *                     outputs differs from the value's and fewer than `limit` cycles were run,
 *                     run one cycle as OP_STEP does and sample again; then write the last
 *                     outputs frame and an ack frame (a session's waitFor on output values, one
 *                     round trip however long the wait; the caller tells a met condition from
 *                     the limit by the outputs);
 *   OP_CLOCK_STEP flags  one step of a design with several clocks (engine.ts, hw/sim/
 *                     clockSchedule.ts): the mask of the clocks that rise in it (bit i:
 *                     `clocks[i]`), then its sample time, its edge time and the next step's
 *                     sample time, two words each; the flags as OP_STEP's;
 *   OP_FRAMES flags   a count word, then that many input frames (every input's words, portFrames.ts):
 *                     per frame, the inputs are set from it and one cycle of the step contract
 *                     runs, flags as OP_STEP's — how a batch stream of a one-clock design reaches
 *                     Verilator: its frames as they are in memory, no per-cycle work in this
 *                     process (the Icarus testbench and several clocks take pokes and steps);
 *                     With STEP_COMPARE (batch runs through files only: Engine.compare) a limit word
 *                     follows the count, with STEP_EXPECT that many expected output frames follow
 *                     the input frames, with STEP_MASK as many mask frames after them (a 0 bit is not
 *                     compared); no outputs frame is written: each cycle's outputs are folded into
 *                     the stream's FNV-1a digest (outputCompare.ts, outputDigest) and compared, and
 *                     after the last cycle one verdict goes into the frames file: the count of
 *                     (cycle, port) mismatches as two words (low first), the digest, the number of
 *                     mismatches listed (at most the limit), and per listed mismatch its cycle, its
 *                     output's index and that output's words as sampled;
 *   OP_END            close the trace and exit 0 (so does the end of the input);
 *   OP_BATCH          only to a harness started with `--serve files` (Verilator): a byte count, then
 *                     the commands file's, the frames file's and a log file's paths, each ending in a
 *                     0 byte, in that many bytes padded to whole words; the harness runs that file's
 *                     commands as a batch run through files does, with what it prints (the lines
 *                     below) going into the log file instead, then answers with an ack frame.
 * Frames (standard output), a header word whose first byte is 0, then its words:
 *   FRAME_OUTPUTS     every output's words (2-state: Verilator);
 *   FRAME_OUTPUTS_4   every output's words as (value, unknown) word pairs, VPI's aval/bval
 *                     (Icarus, whose X and Z are reported, never read as 0);
 *   FRAME_ACK         one word: the cycles stepped in this stream so far.
 * Between frames the simulator's own text lines pass through (the design's check lines, the
 * harness's GEN-STREAM and GEN-CYCLE markers, see HarnessPorts.checked): a line never starts with
 * a 0 byte, so the reader tells them apart. Nothing is text per cycle but those markers.
 *
 * Transport: sessions, and Icarus's batch runs, over the harness's standard input and output.
 * Verilator's batch runs through two files instead (`--commands` and `--frames`, see
 * verilatorHarness.ts; the harness maps the commands file and reads OP_FRAMES blocks in place):
 * the same commands, and every sampled outputs frame without its header (or the verdicts of a compare),
 * so the frames file is the run's output frames exactly as portFrames.ts holds them, read back in
 * one piece — a socket's ~300 KB buffer made every batch a ping-pong of wake-ups between the two
 * processes (BenchPipeline ran at a fifth of Verilator's speed through it).
 */
export const OP_STREAM = 1;
export const OP_POKE = 2;
export const OP_PEEK = 3;
export const OP_STEP = 4;
export const OP_END = 5;
export const OP_CLOCK_STEP = 6;
export const OP_FRAMES = 7;
export const OP_BATCH = 8;
export const OP_WAIT = 9;
export const STEP_SAMPLE = 1;
export const STEP_ACK = 2;
export const STEP_COMPARE = 4;
export const STEP_EXPECT = 8;
export const STEP_MASK = 16;
export const STEP_PEEK = 32;
export const FRAME_OUTPUTS = 0x4f00;
export const FRAME_OUTPUTS_4 = 0x5800;
export const FRAME_ACK = 0x4100;

/**
 * The protocol's numbers by name: the one definition the static harness sources read, through the
 * constants their generated port tables declare (engines/verilator/verilatorHarness.ts,
 * engines/icarus/icarusTestbench.ts), so no C++ or Verilog repeats a number by hand.
 */
export const PROTOCOL_NUMBERS = {
  OP_STREAM,
  OP_POKE,
  OP_PEEK,
  OP_STEP,
  OP_END,
  OP_CLOCK_STEP,
  OP_FRAMES,
  OP_BATCH,
  OP_WAIT,
  STEP_SAMPLE,
  STEP_ACK,
  STEP_COMPARE,
  STEP_EXPECT,
  STEP_MASK,
  STEP_PEEK,
  FRAME_OUTPUTS,
  FRAME_OUTPUTS_4,
  FRAME_ACK,
} as const;

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
   * design's GEN-CHECK and GEN-PRINT lines, so engines/checkLog.ts and engines/printLog.ts can tell
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
