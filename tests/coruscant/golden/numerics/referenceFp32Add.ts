/**
 * An independent IEEE 754 binary32 adder in integer arithmetic, to check golden/numerics/fp32.ts
 * against. It never touches floating point: operands are unpacked to integer significands,
 * aligned exactly (or with a sticky stand-in when one operand is far below the other's half ulp),
 * summed, and rounded to nearest even by hand. All integers stay below 2^53, so Number is exact.
 */
const SIGN = 0x80000000;
const NAN = 0x7fc00000;
const HIDDEN = 2 ** 23;
/** Alignment shifts beyond this make the smaller operand pure sticky (it is < 2^-6 of a quarter ulp). */
const MAX_EXACT_SHIFT = 28;

interface Unpacked {
  negative: boolean;
  /** Biased exponent, 1 for subnormals (value = significand · 2^(exponent − 150)). */
  exponent: number;
  significand: number;
}

function unpack(bits: number): Unpacked {
  const field = (bits >>> 23) & 0xff;
  const fraction = bits & 0x7fffff;
  return {
    negative: (bits & SIGN) !== 0,
    exponent: field === 0 ? 1 : field,
    significand: field === 0 ? fraction : HIDDEN + fraction,
  };
}

function isNaNBits(bits: number): boolean {
  return ((bits >>> 23) & 0xff) === 0xff && (bits & 0x7fffff) !== 0;
}

function isInfinity(bits: number): boolean {
  return (bits & 0x7fffffff) === 0x7f800000;
}

function isZero(bits: number): boolean {
  return (bits & 0x7fffffff) === 0;
}

function bitLength(n: number): number {
  const high = Math.floor(n / 2 ** 32);
  return high > 0 ? 64 - Math.clz32(high) : 32 - Math.clz32(n >>> 0);
}

/** Rounds magnitude `sum` · 2^(scale − 150) to binary32 bits (positive), nearest even. */
function roundToBinary32(sum: number, scale: number): number {
  let shift = bitLength(sum) - 24;
  if (scale + shift < 1) shift = 1 - scale; // subnormal: the exponent field cannot go below 1
  let significand: number;
  if (shift <= 0) {
    significand = sum * 2 ** -shift;
  } else {
    const unit = 2 ** shift;
    significand = Math.floor(sum / unit);
    const remainder = sum - significand * unit;
    const half = unit / 2;
    if (remainder > half || (remainder === half && significand % 2 === 1)) significand += 1;
  }
  let exponent = scale + shift;
  if (significand === 2 ** 24) {
    significand = HIDDEN;
    exponent += 1;
  }
  if (exponent >= 255) return 0x7f800000;
  if (significand < HIDDEN) return significand; // subnormal (or zero): exponent field 0
  return exponent * HIDDEN + (significand - HIDDEN);
}

/** a + b on binary32 bit patterns, per IEEE 754 with round-to-nearest-even and canonical NaN. */
export function referenceFp32Add(a: number, b: number): number {
  a >>>= 0;
  b >>>= 0;
  if (isNaNBits(a) || isNaNBits(b)) return NAN;
  if (isInfinity(a) && isInfinity(b)) return a === b ? a : NAN;
  if (isInfinity(a)) return a;
  if (isInfinity(b)) return b;
  if (isZero(a) && isZero(b)) return (a & b & SIGN) >>> 0; // −0 only if both are −0
  if (isZero(b)) return a;
  if (isZero(a)) return b;

  let x = unpack(a);
  let y = unpack(b);
  if (y.exponent > x.exponent || (y.exponent === x.exponent && y.significand > x.significand)) [x, y] = [y, x];
  const subtract = x.negative !== y.negative;
  const distance = x.exponent - y.exponent;
  let sum: number;
  let scale: number;
  if (distance > MAX_EXACT_SHIFT) {
    // y only decides which side of x the result lies on; any tiny nonzero stand-in does the same.
    sum = x.significand * 8 + (subtract ? -1 : 1);
    scale = x.exponent - 3;
  } else {
    const aligned = x.significand * 2 ** distance;
    sum = subtract ? aligned - y.significand : aligned + y.significand;
    scale = y.exponent;
  }
  if (sum === 0) return 0; // exact cancellation is +0 in round-to-nearest
  const magnitude = roundToBinary32(sum, scale);
  return (x.negative ? magnitude + SIGN : magnitude) >>> 0;
}
