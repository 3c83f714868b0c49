import fc from 'fast-check';

/**
 * FP operand patterns that reach the corners of the units: any pattern, the specials, subnormals,
 * and mid-range values (so sums stay finite and rounding, not overflow, is exercised).
 */
export const fp16Bits: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ sign: fc.nat(1), exponent: fc.integer({ min: 6, max: 22 }), fraction: fc.nat(0x3ff) }).map(({ sign, exponent, fraction }) => (sign << 15) | (exponent << 10) | fraction) },
  { weight: 2, arbitrary: fc.nat(0xffff) },
  { weight: 1, arbitrary: fc.record({ sign: fc.nat(1), fraction: fc.nat(0x3ff) }).map(({ sign, fraction }) => (sign << 15) | fraction) },
  { weight: 1, arbitrary: fc.constantFrom(0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x3c00) },
);

const fp32Specials = [0x00000000, 0x80000000, 0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x3f800000, 0xbf800000];

/** A binary32 pattern from its fields. */
const fp32Of = (sign: number, exponent: number, fraction: number): number => ((sign << 31) | (exponent << 23) | fraction) >>> 0;

export const fp32Bits: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ sign: fc.nat(1), exponent: fc.integer({ min: 100, max: 150 }), fraction: fc.nat(0x7fffff) }).map(({ sign, exponent, fraction }) => fp32Of(sign, exponent, fraction)) },
  { weight: 2, arbitrary: fc.nat(0xffffffff) },
  { weight: 1, arbitrary: fc.record({ sign: fc.nat(1), fraction: fc.nat(0x7fffff) }).map(({ sign, fraction }) => fp32Of(sign, 0, fraction)) },
  { weight: 1, arbitrary: fc.constantFrom(...fp32Specials) },
);

/**
 * FP32 addend pairs: independent, or the second near the first (same or adjacent exponent,
 * either sign), where cancellation, renormalization and ties happen.
 */
export const fp32Pair: fc.Arbitrary<readonly [number, number]> = fc.oneof(
  fc.tuple(fp32Bits, fp32Bits),
  fc.tuple(fp32Bits, fc.integer({ min: -2, max: 2 }), fc.nat(1), fc.nat(0x7fffff)).map(([a, shift, sign, fraction]): readonly [number, number] => {
    const exponent = Math.min(254, Math.max(0, ((a >>> 23) & 0xff) + shift));
    return [a, fp32Of(sign, exponent, fraction)];
  }),
);
