/**
 * Fp16Multiplier against the golden exact product (golden/numerics): every special pair, every
 * exponent pair, and a bulk random sweep (FP_PAIRS vectors, default 10^6; replay with FC_SEED).
 */
import { describe, expect, it } from 'vitest';
import { Fp16Multiplier } from '../../../../coruscant/designs/fp/fp16Multiplier.ts';
import { fp16Product } from '../../../../coruscant/golden/numerics/fp32.ts';
import { seededRandom } from '../../golden/numerics/seededRandom.ts';
import { binaryUnit, expectMatchesGolden, pairCount } from './fpHarness.ts';

/** Zeros, infinities, quiet/signalling NaNs with payloads, subnormal and normal extremes, ±1. */
const SPECIALS = [
  0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7fff, 0xfd55, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0200,
  0x0400, 0x8400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3bff,
];

describe('Fp16Multiplier', () => {
  const unit = binaryUnit(Fp16Multiplier, 'p');

  it('gives the hand-checked products of docs/spec.md §2', () => {
    const cases: [number, number, number][] = [
      [0x3c00, 0x3c00, 0x3f800000], // 1 × 1
      [0x0001, 0x0001, 0x27800000], // 2^-24 squared = 2^-48, an FP32 normal
      [0x0000, 0x7c00, 0x7fc00000], // 0 × ∞ = canonical NaN
      [0x7c01, 0x3c00, 0x7fc00000], // signalling NaN in, canonical NaN out
      [0x8000, 0x3c00, 0x80000000], // −0 × 1 = −0
      [0x7c00, 0xc000, 0xff800000], // ∞ × −2 = −∞
      [0x7bff, 0x7bff, 0x4f7fc004], // 65504² = 4290774016, exact
    ];
    for (const [a, b, product] of cases) {
      unit.simulator.poke('a', a);
      unit.simulator.poke('b', b);
      expect(unit.simulator.peekNumber('p'), `${a.toString(16)} × ${b.toString(16)}`).toBe(product);
    }
  });

  it('matches golden on every pair of specials', () => {
    expectMatchesGolden(unit, fp16Product, SPECIALS.length ** 2, (index) => [
      SPECIALS[index % SPECIALS.length]!,
      SPECIALS[Math.floor(index / SPECIALS.length)]!,
    ]);
  });

  it('matches golden on every exponent pair, with random signs and fractions', () => {
    const random = seededRandom('Fp16Multiplier exponent pairs');
    const perPair = 8;
    const operand = (exponent: number): number =>
      ((random.below(2) << 15) | (exponent << 10) | random.below(1024)) >>> 0;
    expectMatchesGolden(unit, fp16Product, 32 * 32 * perPair, (index) => {
      const pair = Math.floor(index / perPair);
      return [operand(pair % 32), operand(pair >> 5)];
    });
  });

  it('matches golden on uniformly random pairs (FP_PAIRS, default 10^6)', () => {
    const random = seededRandom('Fp16Multiplier random pairs');
    const count = pairCount(1_000_000);
    const rate = expectMatchesGolden(unit, fp16Product, count, () => {
      const bits = random.uint32();
      return [bits & 0xffff, bits >>> 16];
    });
    console.log(`Fp16Multiplier: ${count} random pairs at ${Math.round(rate)} pairs/s`);
  });

  it.each([1, 2])('pipelined=%i gives the same products, that many cycles later', (pipelined) => {
    const random = seededRandom(`Fp16Multiplier pipelined=${pipelined}`);
    const piped = binaryUnit(Fp16Multiplier, 'p', pipelined);
    expect(piped.simulator.design.flat.registers.length).toBeGreaterThan(0);
    expectMatchesGolden(piped, fp16Product, 10_000, () => {
      const bits = random.uint32();
      return [bits & 0xffff, bits >>> 16];
    });
  });
});
