/**
 * IEEE 754 binary32 (FP32) as 32-bit patterns, and the two operations of docs/spec.md §2 that the tensor
 * core is built from: the exact FP16×FP16→FP32 product and the RNE FP32 add.
 */
import { fp16ToNumber } from './fp16.ts';

/** The only NaN any FP32 operation of ours produces (docs/spec.md §2). */
export const CANONICAL_NAN = 0x7fc00000;

const scratchFloat = new Float32Array(1);
const scratchBits = new Uint32Array(scratchFloat.buffer);

/** The value of a binary32 pattern (NaN payloads are not kept). */
export function fp32ToNumber(bits: number): number {
  scratchBits[0] = bits;
  return scratchFloat[0] as number;
}

/** The binary32 pattern nearest to `x` (round to nearest even, as Math.fround); every NaN → 0x7FC00000. */
export function numberToFp32(x: number): number {
  if (Number.isNaN(x)) return CANONICAL_NAN;
  scratchFloat[0] = x;
  return scratchBits[0] as number;
}

/**
 * FP32 a + b, bits in, bits out: round to nearest even, subnormals kept, x + (−x) = +0,
 * −0 + −0 = −0, ∞ + (−∞) = NaN, NaN canonical. Rounding the sum first to double and then to
 * FP32 equals rounding it once to FP32, because double carries ≥ 2·24 + 2 significand bits
 * (Figueroa's innocuous double rounding); JavaScript's signed-zero rules are IEEE's.
 */
export function fp32Add(a: number, b: number): number {
  return numberToFp32(fp32ToNumber(a) + fp32ToNumber(b));
}

/**
 * The FP16×FP16 product as FP32 bits. Exact, never rounded: 11×11 significand bits fit in 24
 * and the exponents stay inside FP32's normal range. NaN in → NaN, 0 × ∞ → NaN, signs XOR.
 */
export function fp16Product(a: number, b: number): number {
  return numberToFp32(fp16ToNumber(a) * fp16ToNumber(b));
}
