import { hasChecks } from '../hw/ir/checks.ts';
import { UserError, ToolError } from '../common/errors.ts';
import { clockPortsOf, topModule, type IrDesign } from '../hw/ir/ir.ts';
import { clockSchedule, type ClockStep, type ClockTimings } from '../hw/sim/clockSchedule.ts';
import type { PortValues } from './engine.ts';

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
 *                     STEP_ACK an ack frame after the last;
 *   OP_CLOCK_STEP flags  one step of a design with several clocks (engine.ts, hw/sim/
 *                     clockSchedule.ts): the mask of the clocks that rise in it (bit i:
 *                     `clocks[i]`), then its sample time, its edge time and the next step's
 *                     sample time, two words each; the flags as OP_STEP's;
 *   OP_END            close the trace and exit 0 (so does the end of the input).
 * Frames (standard output), a header word whose first byte is 0, then its words:
 *   FRAME_OUTPUTS     every output's words (2-state: Verilator);
 *   FRAME_OUTPUTS_4   every output's words as (value, unknown) word pairs, VPI's aval/bval
 *                     (Icarus, whose X and Z are reported, never read as 0);
 *   FRAME_ACK         one word: the cycles stepped in this stream so far.
 * Between frames the simulator's own text lines pass through (the design's check lines, the
 * harness's GEN-STREAM and GEN-CYCLE markers, see HarnessPorts.checked): a line never starts with
 * a 0 byte, so the reader tells them apart. Nothing is text per cycle but those markers.
 */
export const OP_STREAM = 1;
export const OP_POKE = 2;
export const OP_PEEK = 3;
export const OP_STEP = 4;
export const OP_END = 5;
export const OP_CLOCK_STEP = 6;
export const STEP_SAMPLE = 1;
export const STEP_ACK = 2;
export const FRAME_OUTPUTS = 0x4f00;
export const FRAME_OUTPUTS_4 = 0x5800;
export const FRAME_ACK = 0x4100;

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
   * The design has assertions: the harness prints `GEN-STREAM` at each stream start and
   * `GEN-CYCLE` at each cycle's sample point (before the edge) on standard output, between the
   * design's GEN-CHECK lines, so engines/checkLog.ts can tell each failure's stream and cycle.
   */
  readonly checked?: boolean;
}

/** 32-bit words of a port's value. */
export const wordsOf = (width: number): number => Math.ceil(width / 32);

/** The harness view of a design's top. */
export function harnessPortsOf(design: IrDesign): HarnessPorts {
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
    ...(hasChecks(design) ? { checked: true } : {}),
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

  peek(): void {
    this.reserve(1);
    this.words[this.length++] = OP_PEEK;
  }

  step(cycles: number, flags: number): void {
    this.reserve(2);
    this.words[this.length++] = OP_STEP | (flags << 8);
    this.words[this.length++] = cycles;
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
 * The commands of whole streams, each from reset, with an outputs frame per cycle: every
 * cycle's given inputs are checked first (a typo fails here, never as a silent 0), an input
 * a cycle leaves out keeps its value, and runs of cycles that change nothing are one step command
 * (with several clocks, one OP_CLOCK_STEP per step of the clock schedule).
 */
export function streamCommands(
  ports: HarnessPorts,
  streams: readonly (readonly PortValues[])[],
  timings?: ClockTimings,
): Buffer {
  const commands = new HarnessCommands(ports);
  const clocks = ports.clocks;
  const longest = Math.max(0, ...streams.map((stream) => stream.length));
  const schedule = clockSchedule(clocks ?? [], timings, clocks ? longest : 0);
  for (const stream of streams) {
    commands.stream();
    const current = ports.inputs.map(() => 0n);
    let pending = 0;
    stream.forEach((cycle, index) => {
      for (const name in cycle) {
        const value = cycle[name]!;
        const input = checkedInput(ports, name, value, index);
        if (current[input] === value) continue;
        if (pending > 0) commands.step(pending, STEP_SAMPLE);
        pending = 0;
        current[input] = value;
        commands.poke(input, value);
      }
      const step = schedule.steps[index];
      if (step) commands.clockStep(step, schedule.steps[index + 1]?.sample ?? schedule.end, STEP_SAMPLE);
      else pending++;
    });
    if (pending > 0) commands.step(pending, STEP_SAMPLE);
  }
  commands.end();
  return commands.take();
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

/** A decoder of outputs frames (decodeOutputs), specialized for the ports. */
export type OutputDecoder = (bytes: Buffer, offset: number, fourState: boolean) => PortValues;

/** Reads a wide 2-state value of `count` words (the generated decoders' helper). */
function wideValue(bytes: Buffer, offset: number, count: number): bigint {
  let value = 0n;
  for (let word = count - 1; word >= 0; word--) value = (value << 32n) | BigInt(bytes.readUInt32LE(offset + word * 4));
  return value;
}

/**
 * decodeOutputs for one port list, with the 2-state frames (Verilator's, every cycle of a batch
 * run) read by a generated function: one object literal of fixed shape per cycle, one read per
 * port (a 33–64-bit port as one 64-bit read), no loop over the ports.
 */
export function outputDecoder(tool: string, outputs: readonly HarnessPort[]): OutputDecoder {
  let at = 0;
  const fields = outputs.map((port) => {
    const count = wordsOf(port.width);
    const read =
      count === 1
        ? `BigInt(b.readUInt32LE(o + ${at}))`
        : count === 2
          ? `b.readBigUInt64LE(o + ${at})`
          : `wide(b, o + ${at}, ${count})`;
    at += count * 4;
    return `${JSON.stringify(port.name)}: ${read}`;
  });
  const twoState = new Function('wide', `return (b, o) => ({ ${fields.join(', ')} });`)(wideValue) as (
    bytes: Buffer,
    offset: number,
  ) => PortValues;
  return (bytes, offset, fourState) =>
    fourState ? decodeOutputs(tool, outputs, bytes, offset, true) : twoState(bytes, offset);
}

/** Decodes one outputs frame into port values; an unknown bit (Icarus X or Z) is a ToolError. */
export function decodeOutputs(
  tool: string,
  outputs: readonly HarnessPort[],
  bytes: Buffer,
  offset: number,
  fourState: boolean,
): PortValues {
  const values: PortValues = {};
  const stride = fourState ? 8 : 4;
  let at = offset;
  for (const port of outputs) {
    const count = wordsOf(port.width);
    if (fourState) {
      let unknown = 0;
      for (let word = 0; word < count; word++) unknown |= bytes.readUInt32LE(at + word * 8 + 4);
      if (unknown !== 0)
        throw new ToolError(
          tool,
          `output '${port.name}' has unknown bits (${fourStateHex(bytes, at, port.width)}); a register or memory was never initialized`,
        );
    }
    if (count === 1) values[port.name] = BigInt(bytes.readUInt32LE(at));
    else {
      let value = 0n;
      for (let word = count - 1; word >= 0; word--)
        value = (value << 32n) | BigInt(bytes.readUInt32LE(at + word * stride));
      values[port.name] = value;
    }
    at += count * stride;
  }
  return values;
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
