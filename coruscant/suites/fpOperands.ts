import fc from 'fast-check';

/** Field widths of an IEEE binary format, so one generator draws operands of either. */
interface FloatFields {
  readonly exponentBits: number;
  readonly fractionBits: number;
}

const FP16_FIELDS: FloatFields = { exponentBits: 5, fractionBits: 10 };
const FP32_FIELDS: FloatFields = { exponentBits: 8, fractionBits: 23 };

/** A pattern from its fields (unsigned, so FP32's sign bit stays positive in a JS number). */
const packFloat = (
  { exponentBits, fractionBits }: FloatFields,
  sign: number,
  exponent: number,
  fraction: number,
): number => sign * 2 ** (exponentBits + fractionBits) + exponent * 2 ** fractionBits + fraction;

/** Zeros, the smallest and largest subnormal, ∞, NaN, the largest finite and 1 of binary16. */
const fp16Specials = [0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x3c00];
const fp32Specials = [
  0x00000000, 0x80000000, 0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
  0x7f800001, 0x3f800000, 0xbf800000,
];

/**
 * FP operand patterns that reach the corners of the units: any pattern, the specials, subnormals,
 * and mid-range values (so sums stay finite and rounding, not overflow, is exercised).
 */
export const fp16Bits: fc.Arbitrary<number> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ sign: fc.nat(1), exponent: fc.integer({ min: 6, max: 22 }), fraction: fc.nat(0x3ff) })
      .map(({ sign, exponent, fraction }) => packFloat(FP16_FIELDS, sign, exponent, fraction)),
  },
  { weight: 2, arbitrary: fc.nat(0xffff) },
  {
    weight: 1,
    arbitrary: fc
      .record({ sign: fc.nat(1), fraction: fc.nat(0x3ff) })
      .map(({ sign, fraction }) => packFloat(FP16_FIELDS, sign, 0, fraction)),
  },
  { weight: 1, arbitrary: fc.constantFrom(...fp16Specials) },
);

export const fp32Bits: fc.Arbitrary<number> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({ sign: fc.nat(1), exponent: fc.integer({ min: 100, max: 150 }), fraction: fc.nat(0x7fffff) })
      .map(({ sign, exponent, fraction }) => packFloat(FP32_FIELDS, sign, exponent, fraction)),
  },
  { weight: 2, arbitrary: fc.nat(0xffffffff) },
  {
    weight: 1,
    arbitrary: fc
      .record({ sign: fc.nat(1), fraction: fc.nat(0x7fffff) })
      .map(({ sign, fraction }) => packFloat(FP32_FIELDS, sign, 0, fraction)),
  },
  { weight: 1, arbitrary: fc.constantFrom(...fp32Specials) },
);

/** Largest distance in binades between an operand and the one drawn near it. */
const NEAR_BINADES = 2;

/**
 * `count` operands of one format, the first from `first` and the others near it: exponent within
 * ±NEAR_BINADES of the first's (clamped below ∞/NaN), either sign, any fraction. Their sums are
 * where cancellation, renormalization and round-to-even ties happen.
 */
function nearOperands(fields: FloatFields, first: fc.Arbitrary<number>, count: number): fc.Arbitrary<number[]> {
  const topExponent = 2 ** fields.exponentBits - 2;
  const neighbour = fc.tuple(
    fc.integer({ min: -NEAR_BINADES, max: NEAR_BINADES }),
    fc.nat(1),
    fc.nat(2 ** fields.fractionBits - 1),
  );
  return fc
    .tuple(first, fc.array(neighbour, { minLength: count - 1, maxLength: count - 1 }))
    .map(([value, neighbours]) => {
      const exponent = Math.floor(value / 2 ** fields.fractionBits) % 2 ** fields.exponentBits;
      return [
        value,
        ...neighbours.map(([shift, sign, fraction]) =>
          packFloat(fields, sign, Math.min(topExponent, Math.max(0, exponent + shift)), fraction),
        ),
      ];
    });
}

/** Both operands special: ∞ − ∞, NaN + ∞, −0 + −0, largest + largest are each one draw in 144. */
const fp32SpecialPair = fc.tuple(fc.constantFrom(...fp32Specials), fc.constantFrom(...fp32Specials));

/**
 * FP32 addend pairs: independent, the second near the first (cancellation, ties), or two specials
 * (the sign rules of ∞ and zero, NaN propagation).
 */
export const fp32Pair: fc.Arbitrary<readonly [number, number]> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fp32Bits, fp32Bits) },
  { weight: 4, arbitrary: nearOperands(FP32_FIELDS, fp32Bits, 2).map(([a, b]): readonly [number, number] => [a!, b!]) },
  { weight: 1, arbitrary: fp32SpecialPair },
);

/**
 * Four FP16 operands for a dot product: independent, all near the first (so the four products are
 * within a few binades of each other and the adder tree cancels and rounds ties at every level),
 * or all special (∞ − ∞ and 0 × ∞ in the tree).
 */
export const fp16Quad: fc.Arbitrary<number[]> = fc.oneof(
  { weight: 2, arbitrary: fc.array(fp16Bits, { minLength: 4, maxLength: 4 }) },
  { weight: 2, arbitrary: nearOperands(FP16_FIELDS, fp16Bits, 4) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...fp16Specials), { minLength: 4, maxLength: 4 }) },
);

/** Largest distance, in units in the last place, of the nearly cancelling operands from x. */
const CANCEL_ULPS = 8;
/** The finite FP16 magnitudes the ±ulp steps stay within. */
const FP16_LARGEST_FINITE = 0x7bff;

/**
 * One dot-product chunk `[a, b]` whose products cancel in all but their last bits, pair by pair:
 * a_k = b_k = x and a_{k+1} = −(x + i ulp), b_{k+1} = x − i ulp, so p_k + p_{k+1} = x² − (x² − i²
 * ulp²) leaves a few low bits of a 22-bit product — the deep renormalization (a left shift of
 * twenty places) that independent or merely near operands almost never reach.
 */
export const fp16CancellingChunk: fc.Arbitrary<[number[], number[]]> = fc
  .array(fc.tuple(fp16Bits, fc.integer({ min: 1, max: CANCEL_ULPS })), { minLength: 2, maxLength: 2 })
  .map((pairs) => {
    const a: number[] = [];
    const b: number[] = [];
    for (const [x, ulps] of pairs) {
      const magnitude = Math.min(FP16_LARGEST_FINITE - ulps, Math.max(ulps, x & 0x7fff));
      const sign = x & 0x8000;
      a.push(sign | magnitude, (sign ^ 0x8000) | (magnitude + ulps));
      b.push(magnitude, magnitude - ulps);
    }
    return [a, b];
  });
