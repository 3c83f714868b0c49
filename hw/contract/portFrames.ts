import { UserError } from '../../common/errors.ts';

/** Values of named top-level ports; bigint so any width is exact. */
export type PortValues = Record<string, bigint>;

/** A port as the frames lay it out: its name and width in bits. */
export interface FramePort {
  readonly name: string;
  readonly width: number;
}

/** 32-bit words of a port's value. */
export const wordsOf = (width: number): number => Math.ceil(width / 32);

/** Where each port's words sit in a frame, computed once per port list. */
interface FrameLayout {
  readonly stride: number;
  readonly offsets: ReadonlyMap<string, { readonly at: number; readonly words: number; readonly width: number }>;
  /** One frame as PortValues: a generated function, one read per port, an object of fixed shape. */
  readonly row: (words: Uint32Array, base: number) => PortValues;
}

const layouts = new WeakMap<readonly FramePort[], FrameLayout>();

/** Reads a value of `count` words from `words` at `at` (the generated row readers' helper for wide ports). */
function wideValue(words: Uint32Array, at: number, count: number): bigint {
  let value = 0n;
  for (let word = count - 1; word >= 0; word--) value = (value << 32n) | BigInt(words[at + word]!);
  return value;
}

function layoutOf(ports: readonly FramePort[]): FrameLayout {
  const known = layouts.get(ports);
  if (known) return known;
  const offsets = new Map<string, { at: number; words: number; width: number }>();
  const fields: string[] = [];
  let stride = 0;
  for (const port of ports) {
    const words = wordsOf(port.width);
    offsets.set(port.name, { at: stride, words, width: port.width });
    const read =
      words === 1
        ? `BigInt(w[b + ${stride}])`
        : words === 2
          ? `(BigInt(w[b + ${stride + 1}]) << 32n) | BigInt(w[b + ${stride}])`
          : `wide(w, b + ${stride}, ${words})`;
    fields.push(`${JSON.stringify(port.name)}: ${read}`);
    stride += words;
  }
  const row = new Function('wide', `return (w, b) => ({ ${fields.join(', ')} });`)(wideValue) as FrameLayout['row'];
  const layout = { stride, offsets, row };
  layouts.set(ports, layout);
  return layout;
}

/**
 * Port values of many cycles as 32-bit words: one frame per cycle, each port's words in port
 * order, least significant first, every port in every cycle. The engines' typed form of a stream
 * — the in-process simulator copies frames straight into its state, the Verilator and Icarus
 * harnesses speak the same words (hw/contract/harnessProtocol.ts) — so a batch run needs no object
 * and no bigint per cycle. Build input frames with `PortFrames.from` (checked, an input a cycle
 * leaves out keeps its value) or `PortFrames.empty` and `set`; read outputs with `value`, `row`
 * or `rows`. Bits above a port's width are always zero.
 */
export class PortFrames {
  /** Words per frame. */
  readonly stride: number;
  private readonly layout: FrameLayout;

  private constructor(
    /** The ports, in frame order. */
    readonly ports: readonly FramePort[],
    /** Frames in the stream. */
    readonly cycles: number,
    /** `cycles × stride` words. */
    readonly words: Uint32Array,
  ) {
    this.layout = layoutOf(ports);
    this.stride = this.layout.stride;
  }

  /** `cycles` frames of zeros. */
  static empty(ports: readonly FramePort[], cycles: number): PortFrames {
    return new PortFrames(ports, cycles, new Uint32Array(cycles * layoutOf(ports).stride));
  }

  /**
   * `cycles` frames over words that already hold them, exactly that many frames' words, with no
   * bits above a port's width (a harness's answer, which Verilator and the 4-state check of
   * storeOutputs keep clean): taken as they are, not copied.
   */
  static of(ports: readonly FramePort[], words: Uint32Array, cycles: number): PortFrames {
    const { stride } = layoutOf(ports);
    if (words.length !== cycles * stride)
      throw new Error(`internal: ${words.length} words are not ${cycles} frames of ${stride}`);
    return new PortFrames(ports, cycles, words);
  }

  /**
   * The frames of per-cycle port values, each checked: an unknown name or a value that does not
   * fit its port is a UserError naming the cycle; an input a cycle leaves out keeps its previous
   * value (0 at the start), as every engine applies a stream.
   */
  static from(ports: readonly FramePort[], rows: readonly PortValues[], top = 'the top'): PortFrames {
    const frames = PortFrames.empty(ports, rows.length);
    const { stride, offsets } = frames.layout;
    const { words } = frames;
    for (let cycle = 0; cycle < rows.length; cycle++) {
      const base = cycle * stride;
      if (cycle > 0) words.copyWithin(base, base - stride, base);
      const row = rows[cycle]!;
      for (const name in row) {
        const slot = offsets.get(name);
        if (!slot)
          throw new UserError(
            `cycle ${cycle}: ${top} has no input '${name}' (inputs: ${ports.map((port) => port.name).join(', ') || 'none'})`,
          );
        storeValue(words, base + slot.at, slot, row[name]!, name, cycle);
      }
    }
    return frames;
  }

  /** Sets one port in one frame (checked as `from` checks). */
  set(cycle: number, name: string, value: bigint | number): void {
    const slot = this.slotOf(name);
    if (!Number.isInteger(cycle) || cycle < 0 || cycle >= this.cycles)
      throw new UserError(`cycle ${cycle} is outside these ${this.cycles} frames`);
    storeValue(this.words, cycle * this.stride + slot.at, slot, value, name, cycle);
  }

  /** A port's value in one frame. */
  value(cycle: number, name: string): bigint {
    const slot = this.slotOf(name);
    const at = cycle * this.stride + slot.at;
    return slot.words === 1 ? BigInt(this.words[at]!) : wideValue(this.words, at, slot.words);
  }

  /** One frame as port values. */
  row(cycle: number): PortValues {
    return this.layout.row(this.words, cycle * this.stride);
  }

  /** Every frame as port values. */
  rows(): PortValues[] {
    const rows: PortValues[] = new Array(this.cycles);
    for (let cycle = 0; cycle < this.cycles; cycle++) rows[cycle] = this.layout.row(this.words, cycle * this.stride);
    return rows;
  }

  /** Where a port's words start in a frame, and how many there are. */
  slotOf(name: string): { readonly at: number; readonly words: number; readonly width: number } {
    const slot = this.layout.offsets.get(name);
    if (!slot)
      throw new UserError(
        `no port '${name}' in these frames (ports: ${this.ports.map((port) => port.name).join(', ')})`,
      );
    return slot;
  }
}

/** Words per frame of a port list. */
export function frameStride(ports: readonly FramePort[]): number {
  return layoutOf(ports).stride;
}

function storeValue(
  words: Uint32Array,
  at: number,
  slot: { readonly words: number; readonly width: number },
  value: bigint | number,
  name: string,
  cycle: number,
): void {
  if (
    slot.words === 1 &&
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 0 &&
    value < 2 ** slot.width
  ) {
    words[at] = value;
    return;
  }
  const big = typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value) : -1n;
  if (big < 0n || big >> BigInt(slot.width) !== 0n)
    throw new UserError(
      `cycle ${cycle}: value ${String(value)} for '${name}' does not fit in ${slot.width} unsigned bits`,
    );
  if (slot.words === 1) words[at] = Number(big);
  else
    for (let word = 0; word < slot.words; word++) words[at + word] = Number((big >> BigInt(32 * word)) & 0xffffffffn);
}

/**
 * A stream's inputs as frames over the top's inputs: PortValues rows are checked and converted
 * (`PortFrames.from`); frames are taken as they are when they are of exactly these ports.
 */
export function stimulusFrames(
  top: { readonly top: string; readonly inputs: readonly FramePort[] },
  stimulus: readonly PortValues[] | PortFrames,
): PortFrames {
  if (!(stimulus instanceof PortFrames)) return PortFrames.from(top.inputs, stimulus, top.top);
  const same =
    stimulus.ports === top.inputs ||
    (stimulus.ports.length === top.inputs.length &&
      stimulus.ports.every(
        (port, index) => port.name === top.inputs[index]!.name && port.width === top.inputs[index]!.width,
      ));
  if (!same)
    throw new UserError(
      `the stimulus frames are of ports ${describePorts(stimulus.ports)}, but ${top.top} has inputs ${describePorts(top.inputs)}`,
    );
  return stimulus;
}

const describePorts = (ports: readonly FramePort[]): string =>
  ports.length === 0 ? '(none)' : ports.map((port) => `${port.name}[${port.width}]`).join(', ');
