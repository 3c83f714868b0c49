/**
 * Golden whole-matrix SpMM, D = A·B + C for any M, K, N, in the order the Coruscant tensor core
 * computes it: A is cut into STC row tiles of 64 along K (a partial last tile is zero-filled, as
 * the format pads it), each tile is one m32n1k64 MMA of 16 four-element steps in increasing k,
 * and the accumulator carries from tile to tile in increasing k. Per output that is:
 *   acc = C; for k0 = 0, 4, …, 64·⌈K/64⌉ − 4: acc = acc + ((p0 + p1) + (p2 + p3)),
 * with A and B zero-filled beyond K. Row blocks of 32 and columns of B are independent, so their
 * order does not matter.
 */
import { zerosFp32, type Fp16Matrix, type Fp32Matrix } from '../matrix.ts';
import { accumulateInLaneOrder } from './mma.ts';

/** K elements per STC row tile, i.e. per Coruscant MMA. */
export const STC_ROW_TILE_K = 64;

/** D = A(M×K)·B(K×N) + C(M×N) (C defaults to +0) in the hardware's order; see the file comment. */
export function spmm(A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix = zerosFp32(A.rows, B.cols)): Fp32Matrix {
  const kSpan = Math.ceil(A.cols / STC_ROW_TILE_K) * STC_ROW_TILE_K;
  return accumulateInLaneOrder(A, B, C, kSpan);
}
