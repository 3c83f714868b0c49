/**
 * Golden tensor-core MMAs in the exact order of docs/spec.md §2. One function, `accumulateInLaneOrder`,
 * defines that order; the dense HMMA, the Coruscant MMA and whole-matrix SpMM all call it, so
 * they agree by construction. Sparse mode needs no code of its own: the bitmap decoder feeds a
 * +0 operand (0x0000) for every pruned slot, which is exactly the decompressed, zero-filled
 * matrix, so the sparse MMA is this dense one applied to the decompressed A.
 */
import { fp16Product, fp32Add } from '../numerics/fp32.ts';
import type { Fp16Matrix, Fp32Matrix } from '../matrix.ts';

/** K elements one lane consumes per cycle (the FEDP width). */
export const DOT_WIDTH = 4;

/**
 * One lane, one cycle: acc + ((p0 + p1) + (p2 + p3)), p_i = a_i × b_i exact; FP32 bits in and
 * out, FP16 bits for a and b. Each `+` is a rounded FP32 add, in exactly this order.
 */
export function dot4Accumulate(acc: number, a: ArrayLike<number>, b: ArrayLike<number>): number {
  const p0 = fp16Product(a[0] as number, b[0] as number);
  const p1 = fp16Product(a[1] as number, b[1] as number);
  const p2 = fp16Product(a[2] as number, b[2] as number);
  const p3 = fp16Product(a[3] as number, b[3] as number);
  return fp32Add(acc, fp32Add(fp32Add(p0, p1), fp32Add(p2, p3)));
}

/** Throws unless `matrix` is rows × cols; shapes are fixed by the hardware, so a mismatch is a bug. */
function requireShape(what: string, matrix: { rows: number; cols: number }, rows: number, cols: number): void {
  if (matrix.rows !== rows || matrix.cols !== cols) {
    throw new RangeError(`${what} must be ${rows}×${cols}, got ${matrix.rows}×${matrix.cols}`);
  }
}

/**
 * D = A·B + C, each output walking k = 0 … kSpan − 1 in steps of DOT_WIDTH in increasing k
 * (one dot4Accumulate per step), with A and B elements at k ≥ A.cols zero-filled (+0).
 * kSpan is what the hardware walks: 16 for HMMA, 64 per STC row tile. Walking zero-filled steps
 * is not free of effects: acc + (+0) turns an accumulated −0 into +0, as the datapath does.
 */
export function accumulateInLaneOrder(A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix, kSpan: number): Fp32Matrix {
  const { rows: m, cols: k } = A;
  const n = B.cols;
  if (B.rows !== k || C.rows !== m || C.cols !== n) {
    throw new RangeError(`shapes do not chain: A ${m}×${k}, B ${B.rows}×${n}, C ${C.rows}×${C.cols}`);
  }
  if (kSpan < k || kSpan % DOT_WIDTH !== 0)
    throw new RangeError(`kSpan ${kSpan} must cover K = ${k} in steps of ${DOT_WIDTH}`);
  // B's columns, transposed and zero-filled to kSpan, so the inner loop reads them contiguously.
  const bColumns = new Uint16Array(n * kSpan);
  for (let row = 0; row < k; row++)
    for (let col = 0; col < n; col++) bColumns[col * kSpan + row] = B.bits[row * n + col] as number;
  const d = new Uint32Array(C.bits);
  const aStep = new Uint16Array(DOT_WIDTH);
  const bStep = new Uint16Array(DOT_WIDTH);
  for (let row = 0; row < m; row++) {
    for (let col = 0; col < n; col++) {
      let acc = C.bits[row * n + col] as number;
      for (let k0 = 0; k0 < kSpan; k0 += DOT_WIDTH) {
        for (let j = 0; j < DOT_WIDTH; j++) {
          aStep[j] = k0 + j < k ? (A.bits[row * k + k0 + j] as number) : 0;
          bStep[j] = bColumns[col * kSpan + k0 + j] as number;
        }
        acc = dot4Accumulate(acc, aStep, bStep);
      }
      d[row * n + col] = acc;
    }
  }
  return { rows: m, cols: n, bits: d };
}

/** HMMA m16n8k16 (dense/bypass mode): D(16×8) = A(16×16)·B(16×8) + C, K in 4 steps of 4. */
export function denseMma(A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix): Fp32Matrix {
  requireShape('dense MMA A', A, 16, 16);
  requireShape('dense MMA B', B, 16, 8);
  requireShape('dense MMA C', C, 16, 8);
  return accumulateInLaneOrder(A, B, C, 16);
}

/**
 * Coruscant m32n1k64: D(32×1) = A(32×64)·B(64×1) + C, where A is the decompressed, zero-filled
 * weight tile (one STC row tile per thread) and K walks 16 steps of 4.
 */
export function coruscantMma(A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix): Fp32Matrix {
  requireShape('Coruscant MMA A', A, 32, 64);
  requireShape('Coruscant MMA B', B, 64, 1);
  requireShape('Coruscant MMA C', C, 32, 1);
  return accumulateInLaneOrder(A, B, C, 64);
}
