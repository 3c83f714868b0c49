/**
 * IEEE 754 binary16 (FP16) as 16-bit patterns: decoding, correctly rounded encoding and
 * classification. Bits, not numbers, are what the golden models pass around (see golden/matrix.ts).
 */

/** The quiet NaN every NaN encodes to (sign 0, exponent all ones, top fraction bit set). */
export const FP16_CANONICAL_NAN = 0x7e00;

const EXPONENT_MASK = 0x7c00;
const FRACTION_MASK = 0x03ff;
const SIGN_BIT = 0x8000;
const FRACTION_BITS = 10;
const EXPONENT_BIAS = 15;
/** Smallest positive normal, 2^-14: below it the encoding has a fixed exponent (subnormals). */
const MIN_NORMAL = 2 ** (1 - EXPONENT_BIAS);

export type Fp16Class = 'zero' | 'subnormal' | 'normal' | 'infinity' | 'nan';

/** Classifies a binary16 pattern (the sign is ignored). */
export function classifyFp16(bits: number): Fp16Class {
  const exponent = bits & EXPONENT_MASK;
  const fraction = bits & FRACTION_MASK;
  if (exponent === 0) return fraction === 0 ? 'zero' : 'subnormal';
  if (exponent === EXPONENT_MASK) return fraction === 0 ? 'infinity' : 'nan';
  return 'normal';
}

function decode(bits: number): number {
  const sign = bits & SIGN_BIT ? -1 : 1;
  const exponent = (bits & EXPONENT_MASK) >> FRACTION_BITS;
  const fraction = bits & FRACTION_MASK;
  if (exponent === 0) return sign * fraction * 2 ** (1 - EXPONENT_BIAS - FRACTION_BITS);
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1024 + fraction) * 2 ** (exponent - EXPONENT_BIAS - FRACTION_BITS);
}

/** Every pattern's value, so the golden models' inner loops decode with one load. */
const VALUES = Float64Array.from({ length: 0x10000 }, (_, bits) => decode(bits));

/** The exact value of a binary16 pattern (every FP16 value is a double; NaN payloads are lost). */
export function fp16ToNumber(bits: number): number {
  return VALUES[bits & 0xffff] as number;
}

/** Rounds a non-negative number below 2^53 to an integer, ties to even. */
function roundHalfToEven(x: number): number {
  const floor = Math.floor(x);
  const remainder = x - floor; // exact: x and floor share an exponent range
  if (remainder > 0.5 || (remainder === 0.5 && floor % 2 === 1)) return floor + 1;
  return floor;
}

const scratch = new DataView(new ArrayBuffer(8));

/** The unbiased binary exponent of a positive normal double (exact, unlike Math.log2). */
function exponentOf(x: number): number {
  scratch.setFloat64(0, x);
  return ((scratch.getUint16(0) >> 4) & 0x7ff) - 1023;
}

/**
 * The binary16 pattern nearest to `x`: round to nearest, ties to even, in one step from the
 * double (no double rounding); overflow rounds to ±∞; subnormals are produced; NaN → 0x7E00.
 */
export function numberToFp16(x: number): number {
  if (Number.isNaN(x)) return FP16_CANONICAL_NAN;
  const sign = x < 0 || Object.is(x, -0) ? SIGN_BIT : 0;
  const magnitude = Math.abs(x);
  if (magnitude < MIN_NORMAL) {
    // Subnormal range: the pattern is the value in units of 2^-24, and rounding up to 1024
    // lands exactly on the smallest normal's pattern.
    return sign | roundHalfToEven(magnitude * 2 ** 24);
  }
  if (magnitude === Infinity) return sign | EXPONENT_MASK;
  const exponent = exponentOf(magnitude);
  if (exponent > EXPONENT_BIAS) return sign | EXPONENT_MASK;
  // The significand scaled to [1024, 2048); a carry to 2048 bumps the exponent field, and past
  // the largest exponent that carry lands exactly on the infinity pattern.
  const significand = roundHalfToEven(magnitude * 2 ** (FRACTION_BITS - exponent));
  return sign | (((exponent + EXPONENT_BIAS) << FRACTION_BITS) + significand - 1024);
}
