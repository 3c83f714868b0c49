import { bitsFor } from '../../../api/index.ts';

/**
 * Parameters shared by the bitmap decoder blocks (docs/spec.md §4.1). The defaults reproduce the paper:
 * a warp of 32 threads, 64-element row tiles, 4 bitmap bits (4 MAC slots) per cycle.
 */
export const DECODER_DEFAULTS: { readonly threads: number; readonly tileLength: number; readonly slots: number } = {
  threads: 32,
  tileLength: 64,
  slots: 4,
};

/** What each parameter means, for `gen list` and the docs. */
export const DECODER_PARAMETER_DOCS = {
  threads: 'thread slices (one 64×1 row tile of A each); 32 = one warp',
  tileLength: 'elements per row tile = bitmap bits per thread = K of one MMA',
  slots: 'bitmap bits consumed (operands emitted) per thread per cycle',
} as const;

/** Bit widths that follow from the parameters; every block takes its widths from here. */
export interface DecoderWidths {
  /** rank_j = valid slots below slot j: 0 … slots−1 */
  readonly rank: number;
  /** popcount of one cycle's bits: 0 … slots */
  readonly count: number;
  /** nonzeros consumed so far: 0 … tileLength */
  readonly base: number;
  /** position of a nonzero in the thread's value array: 0 … tileLength−1 */
  readonly index: number;
  /** 32-bit register holding that value (two FP16 per register): index >> 1 */
  readonly register: number;
  /** dense-vector chunk pointer: 0, slots, … tileLength−slots */
  readonly pointer: number;
}

/** The widths of every decoder signal for a (tileLength, slots) pair. */
export function decoderWidths(p: { readonly tileLength: number; readonly slots: number }): DecoderWidths {
  const index = bitsFor(p.tileLength - 1);
  return {
    rank: bitsFor(p.slots - 1),
    count: bitsFor(p.slots),
    base: bitsFor(p.tileLength),
    index,
    register: index - 1,
    pointer: index,
  };
}

const LIMITS = { slots: [1, 64], tileLength: [4, 4096], threads: [1, 1024] } as const;

/** Rejects parameter sets the decoder cannot build; undefined when fine. */
export function validateDecoderParams(p: {
  readonly threads?: number;
  readonly tileLength?: number;
  readonly slots?: number;
}): string | undefined {
  for (const [key, [low, high]] of Object.entries(LIMITS)) {
    const value = p[key as keyof typeof LIMITS];
    if (value !== undefined && (!Number.isInteger(value) || value < low || value > high))
      return `${key} must be a whole number from ${low} to ${high}, got ${value}`;
  }
  if (
    p.tileLength !== undefined &&
    p.slots !== undefined &&
    (p.tileLength % p.slots !== 0 || p.tileLength < 2 * p.slots)
  )
    return `tileLength (${p.tileLength}) must be a multiple of slots (${p.slots}) and take at least 2 cycles`;
  return undefined;
}
