/**
 * Golden behavioural model of the Coruscant bitmap decoder (docs/spec.md §4.1, paper Fig. 14), written
 * from the format (docs/spec.md §3.2) and not from the RTL: plain loops over each thread's bitmap.
 *
 * Timing of the hardware it describes: `start` in cycle t loads the bitmaps; cycles t+1 …
 * t+tileLength/slots present the MMA's chunks in order. `start` in an MMA's last cycle chains the
 * next one without a bubble, `start` earlier restarts, `reset` wins over `start` and idles.
 */

/** Decoder shape; the defaults reproduce the paper (one warp, K = 64, 4 MACs per lane per cycle). */
export interface DecoderShape {
  readonly threads: number;
  readonly tileLength: number;
  readonly slots: number;
}

/** The paper's decoder: 32 threads, 64-element row tiles, 4 slots per cycle. */
export const PAPER_DECODER_SHAPE: DecoderShape = { threads: 32, tileLength: 64, slots: 4 };

/** What one multiplier slot of one thread receives in one cycle. */
export interface SlotSelect {
  /** The slot's bitmap bit: a nonzero is stored for this column. */
  readonly valid: boolean;
  /** Nonzeros stored before this column: the value's position in the thread's array when valid. */
  readonly valueIndex: number;
  /** 32-bit register holding the value (valueIndex >> 1); 0 for a zero fill. */
  readonly register: number;
  /** 1 = high half (odd valueIndex); 0 for a zero fill. */
  readonly half: 0 | 1;
  /** The slot is zero-filled. */
  readonly zero: boolean;
}

/** One cycle of the decoder's output. */
export interface DecoderCycle {
  /** The cycle belongs to an MMA. */
  readonly valid: boolean;
  /** Index of the first dense-vector element broadcast this cycle (0 when idle). */
  readonly pointer: number;
  readonly first: boolean;
  readonly last: boolean;
  /** [thread][slot] */
  readonly slots: readonly (readonly SlotSelect[])[];
}

/** The column's bit of a bitmap, LSB first (docs/spec.md §3.2: bit c ↔ column c). */
function bitOf(bitmap: bigint, column: number): boolean {
  return ((bitmap >> BigInt(column)) & 1n) === 1n;
}

/**
 * The select for one slot: value v lives in register v >> 1, high half when v is odd (docs/spec.md §3.2);
 * an empty slot is zero-filled and reads register 0, low half.
 */
export function operandSelect(valid: boolean, valueIndex: number): SlotSelect {
  return valid
    ? { valid, valueIndex, register: Math.floor(valueIndex / 2), half: (valueIndex % 2) as 0 | 1, zero: false }
    : { valid, valueIndex, register: 0, half: 0, zero: true };
}

/** The selects of one MMA, one entry per cycle (tileLength / slots of them). */
export function decodeMma(bitmaps: readonly bigint[], shape: DecoderShape = PAPER_DECODER_SHAPE): DecoderCycle[] {
  if (bitmaps.length !== shape.threads)
    throw new RangeError(`decodeMma needs ${shape.threads} bitmaps, got ${bitmaps.length}`);
  const cycles = shape.tileLength / shape.slots;
  const perThread = bitmaps.map((bitmap) => {
    if (bitmap < 0n || bitmap >> BigInt(shape.tileLength) !== 0n)
      throw new RangeError(`bitmap ${bitmap} does not fit ${shape.tileLength} bits`);
    const selects: SlotSelect[] = [];
    let stored = 0;
    for (let column = 0; column < shape.tileLength; column++) {
      const valid = bitOf(bitmap, column);
      selects.push(operandSelect(valid, stored));
      if (valid) stored++;
    }
    return selects;
  });
  const result: DecoderCycle[] = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    const from = cycle * shape.slots;
    result.push({
      valid: true,
      pointer: from,
      first: cycle === 0,
      last: cycle === cycles - 1,
      slots: perThread.map((selects) => selects.slice(from, from + shape.slots)),
    });
  }
  return result;
}

/** The decoder's output in a cycle outside any MMA: every slot a zero fill at register 0. */
export function idleCycle(shape: DecoderShape = PAPER_DECODER_SHAPE): DecoderCycle {
  const slots = Array.from({ length: shape.threads }, () =>
    Array.from({ length: shape.slots }, () => operandSelect(false, 0)),
  );
  return { valid: false, pointer: 0, first: false, last: false, slots };
}

/** One cycle of stimulus at the decoder's handshake. */
export interface DecoderStimulus {
  readonly reset?: boolean;
  readonly start?: boolean;
  /** Per thread; read only when start (and not reset). */
  readonly bitmaps?: readonly bigint[];
}

/**
 * The decoder's output for each cycle of a stimulus stream, starting idle: the selects of the
 * MMA in flight, else `idleCycle`.
 */
export function decoderTimeline(
  stimulus: readonly DecoderStimulus[],
  shape: DecoderShape = PAPER_DECODER_SHAPE,
): DecoderCycle[] {
  const idle = idleCycle(shape);
  const out: DecoderCycle[] = [];
  let pending: DecoderCycle[] = [];
  for (const cycle of stimulus) {
    out.push(pending.shift() ?? idle);
    if (cycle.reset) pending = [];
    else if (cycle.start) pending = decodeMma(cycle.bitmaps ?? [], shape);
  }
  return out;
}
