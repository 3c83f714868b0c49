/**
 * Fp32Adder against the golden RNE add (golden/numerics): hand-checked IEEE corner cases, a
 * fast-check property over the biased hard-case generator (shrinks to the simplest failing draw),
 * and a bulk sweep of FP_PAIRS biased pairs (default 10^6). Replay with FC_SEED=<seed>.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Fp32Adder } from '../../../../coruscant/designs/fp/fp32Adder.ts';
import { fp32Add, fp32ToNumber } from '../../../../coruscant/golden/numerics/fp32.ts';
import { seededRandom } from '../../golden/numerics/seededRandom.ts';
import { fastCheckSeed } from '../../../support/seed.ts';
import { binaryUnit, expectMatchesGolden, pairCount } from './fpHarness.ts';
import { hardPair, type Draw } from './fp32HardCases.ts';

/** What a sweep exercised, so a generator that drifts away from the hard cases is caught. */
interface Coverage {
  subnormal: number;
  positiveZero: number;
  negativeZero: number;
  overflow: number;
  invalid: number;
  nan: number;
  tie: number;
}

const isNaNBits = (bits: number): boolean => (bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0;
const isInfinity = (bits: number): boolean => (bits & 0x7fffffff) === 0x7f800000;

/** A halfway case: the exact sum lies midway between two FP32 values (exact in double here). */
function isTie(a: number, b: number): boolean {
  const sum = fp32ToNumber(a) + fp32ToNumber(b);
  const rounded = Math.fround(sum);
  const mirror = 2 * sum - rounded;
  return Number.isFinite(sum) && rounded !== sum && Math.fround(mirror) === mirror;
}

function record(coverage: Coverage, a: number, b: number, sum: number): void {
  const finiteIn = !isNaNBits(a) && !isNaNBits(b) && !isInfinity(a) && !isInfinity(b);
  if ((sum & 0x7f800000) === 0 && (sum & 0x7fffff) !== 0) coverage.subnormal++;
  if (sum === 0) coverage.positiveZero++;
  if (sum === 0x80000000) coverage.negativeZero++;
  if (finiteIn && isInfinity(sum)) coverage.overflow++;
  if (isInfinity(a) && isInfinity(b) && sum === 0x7fc00000) coverage.invalid++;
  if (isNaNBits(sum)) coverage.nan++;
  if (finiteIn && isTie(a, b)) coverage.tie++;
}

describe('Fp32Adder', () => {
  const unit = binaryUnit(Fp32Adder, 's');

  it.each([
    ['1 + 2^-24 ties to even (down)', 0x3f800000, 0x33800000, 0x3f800000],
    ['(1 + 2^-23) + 2^-24 ties to even (up)', 0x3f800001, 0x33800000, 0x3f800002],
    ['max finite + half ulp ties up to +∞', 0x7f7fffff, 0x73000000, 0x7f800000],
    ['max finite + just under half ulp stays finite', 0x7f7fffff, 0x72ffffff, 0x7f7fffff],
    ['x + (−x) = +0', 0x3f800000, 0xbf800000, 0x00000000],
    ['−0 + −0 = −0', 0x80000000, 0x80000000, 0x80000000],
    ['−0 + +0 = +0', 0x80000000, 0x00000000, 0x00000000],
    ['∞ + (−∞) = canonical NaN', 0x7f800000, 0xff800000, 0x7fc00000],
    ['NaN payload in, canonical NaN out', 0xff800001, 0x3f800000, 0x7fc00000],
    ['min subnormal doubled', 0x00000001, 0x00000001, 0x00000002],
    ['min normal − min subnormal = max subnormal', 0x00800000, 0x80000001, 0x007fffff],
    ['max subnormal + min subnormal = min normal', 0x007fffff, 0x00000001, 0x00800000],
    ['−∞ + finite = −∞', 0xff800000, 0x7f7fffff, 0xff800000],
  ])('%s', (_, a, b, sum) => {
    unit.simulator.poke('a', a);
    unit.simulator.poke('b', b);
    expect(unit.simulator.peekNumber('s')).toBe(sum);
    expect(fp32Add(a, b) >>> 0).toBe(sum);
  });

  it('matches golden on fast-check hard cases (shrinking)', () => {
    const seed = fastCheckSeed('Fp32Adder hard cases');
    const draws = fc.array(fc.nat({ max: 0xffffffff }), { minLength: 16, maxLength: 16 });
    fc.assert(
      fc.property(draws, (values) => {
        let next = 0;
        const draw: Draw = (n) => values[next++ % values.length]! % n;
        const [a, b] = hardPair(draw);
        unit.simulator.poke('a', a);
        unit.simulator.poke('b', b);
        expect(unit.simulator.peekNumber('s'), `a=0x${a.toString(16)} b=0x${b.toString(16)}`).toBe(fp32Add(a, b) >>> 0);
      }),
      { seed, numRuns: 5_000 },
    );
  });

  it('matches golden on biased hard-case pairs (FP_PAIRS, default 10^6)', () => {
    const random = seededRandom('Fp32Adder biased pairs');
    const count = pairCount(1_000_000);
    const coverage: Coverage = {
      subnormal: 0,
      positiveZero: 0,
      negativeZero: 0,
      overflow: 0,
      invalid: 0,
      nan: 0,
      tie: 0,
    };
    const golden = (a: number, b: number): number => {
      const sum = fp32Add(a, b) >>> 0;
      record(coverage, a, b, sum);
      return sum;
    };
    const rate = expectMatchesGolden(unit, golden, count, () => hardPair(random.below));
    console.log(
      `Fp32Adder: ${count} biased pairs at ${Math.round(rate)} pairs/s; results: ${JSON.stringify(coverage)}`,
    );
    for (const [what, hits] of Object.entries(coverage))
      expect(hits, `${what} results exercised`).toBeGreaterThan(count / 2000);
  });

  it.each([1, 2, 3])('pipelined=%i gives the same sums, that many cycles later', (pipelined) => {
    const random = seededRandom(`Fp32Adder pipelined=${pipelined}`);
    const piped = binaryUnit(Fp32Adder, 's', pipelined);
    expect(piped.simulator.design.flat.registers.length).toBeGreaterThan(0);
    expectMatchesGolden(piped, fp32Add, 10_000, () => hardPair(random.below));
  });
});
