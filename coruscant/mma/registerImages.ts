/**
 * What the operand register file holds for one MMA in each mode (docs/tensor-core.md): the
 * per-thread value registers, the four C registers per thread, the shared B vector and the
 * bitmaps. This is the bench's side of the MmaUnit's register conventions, written from the
 * documentation rather than imported from the hardware, so a mismatch shows as a wrong result.
 */
import { encodeStc, stcThreadRegisters } from '../golden/formats/stcFormat.ts';
import type { Fp16Matrix, Fp32Matrix } from '../golden/matrix.ts';

export type MmaMode = 'dense' | 'coruscant';

/** Warp threads = MmaUnit lanes. */
export const THREADS = 32;
/** Value registers per thread and B vector registers. */
export const VALUE_REGISTERS = 32;
/** C registers per thread (dense output slots). */
export const C_SLOTS = 4;

/** Operand shapes per mode: A rows × K, B K × N. */
export const MMA_SHAPES: Record<MmaMode, { m: number; n: number; k: number }> = {
  dense: { m: 16, n: 8, k: 16 },
  coruscant: { m: 32, n: 1, k: 64 },
};

export interface RegisterImage {
  /** Per thread, 32 value registers. */
  readonly values: Uint32Array[];
  /** Per thread, 4 C registers (FP32 bits). */
  readonly c: Uint32Array[];
  /** The 32 registers of the shared B vector. */
  readonly vector: Uint32Array;
  /** Per thread, the 64-bit row-tile bitmap (0 in dense mode). */
  readonly bitmaps: bigint[];
}

/** Two FP16 values in one register, the first in the low half (docs/spec.md §3.2). */
const pack = (low: number, high: number): number => (low | (high << 16)) >>> 0;

/**
 * Dense mode: lane t computes rows 2·(t >> 2) + i and columns 2·(t & 3) + j of D (i, j ∈ {0, 1}),
 * output slot s = 2i + j. Registers 8i … 8i + 7 hold A's row, registers 16 + 8j … 23 + 8j B's
 * column, two consecutive k per register.
 */
export function denseOutput(thread: number, slot: number): { row: number; col: number } {
  return { row: 2 * (thread >> 2) + (slot >> 1), col: 2 * (thread & 3) + (slot & 1) };
}

function denseImage(A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix): RegisterImage {
  const values: Uint32Array[] = [];
  const c: Uint32Array[] = [];
  for (let thread = 0; thread < THREADS; thread++) {
    const registers = new Uint32Array(VALUE_REGISTERS);
    const accumulators = new Uint32Array(C_SLOTS);
    for (let half = 0; half < 2; half++) {
      const { row } = denseOutput(thread, 2 * half);
      const { col } = denseOutput(thread, half);
      for (let pair = 0; pair < 8; pair++) {
        registers[8 * half + pair] = pack(A.bits[row * 16 + 2 * pair]!, A.bits[row * 16 + 2 * pair + 1]!);
        registers[16 + 8 * half + pair] = pack(B.bits[2 * pair * 8 + col]!, B.bits[(2 * pair + 1) * 8 + col]!);
      }
    }
    for (let slot = 0; slot < C_SLOTS; slot++) {
      const { row, col } = denseOutput(thread, slot);
      accumulators[slot] = C.bits[row * 8 + col]!;
    }
    values.push(registers);
    c.push(accumulators);
  }
  return { values, c, vector: new Uint32Array(VALUE_REGISTERS), bitmaps: new Array<bigint>(THREADS).fill(0n) };
}

/** Coruscant mode: thread t holds row t's STC row tile; C[t] in its C register 0. */
function coruscantImage(A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix): RegisterImage {
  const tiles = encodeStc(A).tiles.map(stcThreadRegisters);
  const vector = new Uint32Array(VALUE_REGISTERS);
  for (let register = 0; register < VALUE_REGISTERS; register++)
    vector[register] = pack(B.bits[2 * register]!, B.bits[2 * register + 1]!);
  return {
    values: tiles.map((tile) => tile.values),
    c: tiles.map((_, thread) => Uint32Array.of(C.bits[thread]!, 0, 0, 0)),
    vector,
    bitmaps: tiles.map((tile) => (BigInt(tile.bitmapHi >>> 0) << 32n) | BigInt(tile.bitmapLo >>> 0)),
  };
}

/** The register image of one MMA; shapes must match MMA_SHAPES[mode]. */
export function registerImage(mode: MmaMode, A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix): RegisterImage {
  const { m, n, k } = MMA_SHAPES[mode];
  if (A.rows !== m || A.cols !== k || B.rows !== k || B.cols !== n || C.rows !== m || C.cols !== n) {
    throw new RangeError(
      `${mode} MMA needs A ${m}×${k}, B ${k}×${n}, C ${m}×${n}; got A ${A.rows}×${A.cols}, B ${B.rows}×${B.cols}, C ${C.rows}×${C.cols}`,
    );
  }
  return mode === 'dense' ? denseImage(A, B, C) : coruscantImage(A, B, C);
}
