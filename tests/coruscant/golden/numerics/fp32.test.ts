import { describe, expect, it } from 'vitest';
import {
  CANONICAL_NAN,
  fp16Product,
  fp32Add,
  fp32ToNumber,
  numberToFp32,
} from '../../../../coruscant/golden/numerics/fp32.ts';
import { referenceFp32Add } from './referenceFp32Add.ts';
import { seededRandom, type SeededRandom } from './seededRandom.ts';

const hex = (bits: number): string => `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;
const view = new DataView(new ArrayBuffer(4));

/** FP16 bits → value by re-packing into FP32 bits (a route independent of golden/numerics/fp16.ts). */
function fp16ViaFp32Bits(bits: number): number {
  const sign = (bits & 0x8000) << 16;
  let exponent = (bits >> 10) & 0x1f;
  let fraction = bits & 0x3ff;
  let packed: number;
  if (exponent === 0x1f) packed = sign | 0x7f800000 | (fraction << 13);
  else if (exponent === 0 && fraction === 0) packed = sign;
  else {
    if (exponent === 0) {
      exponent = 1;
      while ((fraction & 0x400) === 0) {
        fraction <<= 1;
        exponent -= 1;
      }
      fraction &= 0x3ff;
    }
    packed = sign | ((exponent - 15 + 127) << 23) | (fraction << 13);
  }
  view.setUint32(0, packed >>> 0);
  return view.getFloat32(0);
}

function doubleToFp32Bits(x: number): number {
  if (Number.isNaN(x)) return CANONICAL_NAN;
  view.setFloat32(0, Math.fround(x));
  return view.getUint32(0);
}

const FP16_SPECIALS = [
  0x0000,
  0x8000, // ±0
  0x0001,
  0x8001,
  0x03ff,
  0x83ff, // smallest and largest subnormals
  0x0400,
  0x8400,
  0x7bff,
  0xfbff, // smallest normal, largest finite
  0x7c00,
  0xfc00, // ±∞
  0x7e00,
  0x7c01,
  0xfe00,
  0x7fff,
  0xffff, // NaNs, quiet and signalling, both signs
  0x3c00,
  0xbc00,
  0x3bff,
  0x3c01,
  0xbbff,
  0xbc01,
  0x3800,
  0x4000, // 1, −1 and around them
];

describe('fp16Product', () => {
  it('matches the exact double product rounded by Math.fround on all special pairs and 10^6 random pairs', () => {
    const random = seededRandom('fp16Product');
    const pairs: [number, number][] = [];
    for (const a of FP16_SPECIALS) for (const b of FP16_SPECIALS) pairs.push([a, b]);
    const failures: string[] = [];
    const check = (a: number, b: number): void => {
      const expected = doubleToFp32Bits(fp16ViaFp32Bits(a) * fp16ViaFp32Bits(b));
      const got = fp16Product(a, b);
      if (got !== expected && failures.length < 10)
        failures.push(`${a.toString(16)}×${b.toString(16)} = ${hex(got)}, want ${hex(expected)}`);
    };
    for (const [a, b] of pairs) check(a, b);
    for (let i = 0; i < 1_000_000; i++) {
      const r = random.uint32();
      check(r & 0xffff, r >>> 16);
    }
    expect(failures).toEqual([]);
  });

  it('follows the IEEE special rules', () => {
    expect(fp16Product(0x0000, 0x7c00)).toBe(CANONICAL_NAN); // 0 × ∞
    expect(fp16Product(0x7c01, 0x3c00)).toBe(CANONICAL_NAN); // signalling NaN in
    expect(fp16Product(0x8000, 0x3c00)).toBe(0x80000000); // −0 × 1 = −0
    expect(fp16Product(0xbc00, 0xbc00)).toBe(0x3f800000); // −1 × −1 = 1
    expect(fp16Product(0x0001, 0x0001)).toBe(0x27800000); // 2^-48, exact (FP32 normal)
    expect(fp16Product(0x7bff, 0x7bff)).toBe(doubleToFp32Bits(65504 * 65504)); // exact, no overflow
  });
});

/** Pair generators biased towards the cases an adder gets wrong. */
const HARD_CASES: Record<string, (random: SeededRandom) => [number, number]> = {
  uniform: (r) => [r.uint32(), r.uint32()],
  nearbyExponents: (r) => {
    // Sparse significands make exact ties to even frequent.
    const a = r.uint32();
    const shift = r.below(27);
    const exponent = Math.max(0, ((a >>> 23) & 0xff) - shift);
    const fraction = (1 << r.below(23)) | (r.below(2) ? 1 << r.below(23) : 0);
    return [a, ((r.below(2) << 31) | (exponent << 23) | fraction) >>> 0];
  },
  tieToEven: (r) => {
    // b is exactly half an ulp of a (or 1.5 ulp, or a quarter): a pure rounding decision.
    const exponent = 25 + r.below(229);
    const a = (r.below(2) << 31) | (exponent << 23) | r.below(1 << 23);
    const offset = [24, 24, 23, 25][r.below(4)] as number;
    const b = ((a & 0x80000000) ^ (r.below(2) << 31)) | ((exponent - offset) << 23) | (r.below(2) ? 0x400000 : 0);
    return [a >>> 0, b >>> 0];
  },
  cancellation: (r) => {
    const a = r.uint32();
    const delta = r.below(9) - 4 + (r.below(4) === 0 ? r.below(1 << 12) : 0);
    return [a, ((a ^ 0x80000000) + delta) >>> 0];
  },
  subnormalResults: (r) => {
    const small = (): number => ((r.below(2) << 31) | (r.below(3) << 23) | r.below(1 << 23)) >>> 0;
    return [small(), small()];
  },
  overflow: (r) => {
    const sign = r.below(2) << 31;
    const big = (): number => (sign | ((253 + r.below(2)) << 23) | r.below(1 << 23)) >>> 0;
    return [big(), big()];
  },
  specials: (r) => {
    const specials = [
      0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffffffff, 1, 0x80000001, 0x7f7fffff, 0xff7fffff,
      0x00800000, 0x007fffff,
    ];
    const pick = (): number => (r.below(2) ? (specials[r.below(specials.length)] as number) : r.uint32());
    return [pick(), pick()];
  },
};

describe('fp32Add', () => {
  it('matches an independent integer IEEE adder on 10^6 pairs biased to hard cases', () => {
    const random = seededRandom('fp32Add');
    const generators = Object.entries(HARD_CASES);
    const failures: string[] = [];
    const perGenerator = Math.ceil(1_000_000 / generators.length);
    for (const [name, generate] of generators) {
      for (let i = 0; i < perGenerator; i++) {
        const [a, b] = generate(random);
        const got = fp32Add(a, b);
        const expected = referenceFp32Add(a, b);
        if (got !== expected && failures.length < 10)
          failures.push(`${name}: ${hex(a)} + ${hex(b)} = ${hex(got)}, want ${hex(expected)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ['x + (−x) = +0', 0x3f800000, 0xbf800000, 0x00000000],
    ['−0 + −0 = −0', 0x80000000, 0x80000000, 0x80000000],
    ['+0 + −0 = +0', 0x00000000, 0x80000000, 0x00000000],
    ['∞ + −∞ = NaN', 0x7f800000, 0xff800000, CANONICAL_NAN],
    ['∞ + finite = ∞', 0x7f800000, 0xff7fffff, 0x7f800000],
    ['NaN payload is canonicalised', 0xffc12345, 0x3f800000, CANONICAL_NAN],
    ['max + max overflows to ∞', 0x7f7fffff, 0x7f7fffff, 0x7f800000],
    ['subnormals add exactly', 0x00000001, 0x00000001, 0x00000002],
    ['subnormal sum carries into the normals', 0x007fffff, 0x00000001, 0x00800000],
    ['1 + 2^-24 ties to even (1)', 0x3f800000, 0x33800000, 0x3f800000],
    ['(1 + 2^-23) + 2^-24 ties to even (1 + 2^-22)', 0x3f800001, 0x33800000, 0x3f800002],
  ])('%s (both adders)', (_name, a, b, sum) => {
    expect(hex(fp32Add(a, b))).toBe(hex(sum));
    expect(hex(referenceFp32Add(a, b))).toBe(hex(sum));
  });

  it('converts numbers to FP32 bits and back exactly where representable', () => {
    expect(numberToFp32(1)).toBe(0x3f800000);
    expect(numberToFp32(-0)).toBe(0x80000000);
    expect(numberToFp32(NaN)).toBe(CANONICAL_NAN);
    expect(numberToFp32(1 + 2 ** -24)).toBe(0x3f800000);
    expect(Object.is(fp32ToNumber(0x80000000), -0)).toBe(true);
    expect(fp32ToNumber(0x00000001)).toBe(2 ** -149);
  });
});
