/**
 * FP32 operand pairs biased to where adders go wrong: ties, alignment by every distance,
 * cancellation, subnormal results, overflow, infinities, NaNs and signed zeros. One generator
 * serves both drivers: a seeded PRNG for the bulk sweep and fast-check (which then shrinks the
 * draws of a failing pair toward zero, i.e. toward the simplest case of its kind).
 */

/** A uniform integer in [0, n). */
export type Draw = (n: number) => number;

const SIGN = 0x80000000;
const MAX_EXPONENT = 254;
const pack = (sign: number, exponent: number, fraction: number): number =>
  ((sign << 31) | (exponent << 23) | fraction) >>> 0;

/** Zeros, infinities, NaNs with payloads, subnormal/normal extremes, 1 and its neighbours. */
export const FP32_SPECIALS: readonly number[] = [
  0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0xffffffff,
  0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x00800001, 0x7f7fffff, 0xff7fffff,
  0x7f000000, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x33800000,
];

/** Fractions with the bit patterns rounding cares about: all zeros, all ones, lone top/bottom bits. */
function fraction(draw: Draw): number {
  const patterns = [0, 0x7fffff, 0x400000, 1, 0x400001, 0x3fffff];
  const pick = draw(patterns.length + 4);
  return pick < patterns.length ? patterns[pick]! : draw(0x800000);
}

const uint32 = (draw: Draw): number => (draw(0x10000) * 0x10000 + draw(0x10000)) >>> 0;

/** The kinds of pair, with weights (out of their sum) for how often each is drawn. */
const KINDS: readonly {
  readonly name: string;
  readonly weight: number;
  readonly make: (draw: Draw) => [number, number];
}[] = [
  { name: 'uniform', weight: 2, make: (draw) => [uint32(draw), uint32(draw)] },
  {
    name: 'special',
    weight: 1,
    make: (draw) => [
      FP32_SPECIALS[draw(FP32_SPECIALS.length)]!,
      draw(2) ? FP32_SPECIALS[draw(FP32_SPECIALS.length)]! : uint32(draw),
    ],
  },
  {
    // Every alignment distance 0…31 (and beyond, saturating), with tie-prone fractions.
    name: 'aligned',
    weight: 4,
    make: (draw) => {
      const exponent = draw(MAX_EXPONENT + 1);
      return [pack(draw(2), exponent, fraction(draw)), pack(draw(2), Math.max(0, exponent - draw(34)), fraction(draw))];
    },
  },
  {
    // x − y with |y| within a few ulps or one binade of |x|: massive cancellation, long shifts.
    name: 'cancel',
    weight: 3,
    make: (draw) => {
      const a = uint32(draw) & 0x7f7fffff;
      const magnitude = Math.min(
        0x7f7fffff,
        Math.max(0, a + draw(9) - 4 + (draw(4) === 0 ? (draw(2) ? 1 : -1) << 23 : 0)),
      );
      const sign = draw(2) * SIGN;
      return [(a | sign) >>> 0, (magnitude | (sign ^ SIGN)) >>> 0];
    },
  },
  {
    name: 'subnormal',
    weight: 2,
    make: (draw) => [pack(draw(2), draw(3), fraction(draw)), pack(draw(2), draw(3), fraction(draw))],
  },
  {
    name: 'overflow',
    weight: 1,
    make: (draw) => {
      const sign = draw(2);
      return [
        pack(sign, MAX_EXPONENT - draw(3), fraction(draw)),
        pack(draw(8) ? sign : 1 - sign, MAX_EXPONENT - draw(26), fraction(draw)),
      ];
    },
  },
  {
    name: 'infinity',
    weight: 1,
    make: (draw) => [pack(draw(2), 0xff, 0), draw(2) ? pack(draw(2), 0xff, 0) : uint32(draw)],
  },
  {
    name: 'zeros',
    weight: 1,
    make: (draw) => {
      const zero = draw(2) * SIGN;
      const other = [0, SIGN, uint32(draw)][draw(3)]!;
      return draw(3) ? [zero, other] : [other, (other ^ SIGN) >>> 0];
    },
  },
];

const TOTAL_WEIGHT = KINDS.reduce((sum, kind) => sum + kind.weight, 0);

/** One biased pair; `draw` supplies every random choice. */
export function hardPair(draw: Draw): [number, number] {
  let pick = draw(TOTAL_WEIGHT);
  for (const kind of KINDS) {
    if (pick < kind.weight) return kind.make(draw);
    pick -= kind.weight;
  }
  throw new Error('unreachable: weights cover the draw');
}
