import { describe, expect, it } from 'vitest';
import {
  classifyFp16,
  fp16ToNumber,
  numberToFp16,
  type Fp16Class,
} from '../../../../coruscant/golden/numerics/fp16.ts';

const isNaNPattern = (bits: number): boolean => (bits & 0x7c00) === 0x7c00 && (bits & 0x3ff) !== 0;

describe('fp16 decode/encode', () => {
  it('round-trips all 65,536 patterns (NaNs stay NaN, as the canonical 0x7E00)', () => {
    const mismatches: string[] = [];
    for (let bits = 0; bits < 0x10000; bits++) {
      const back = numberToFp16(fp16ToNumber(bits));
      const expected = isNaNPattern(bits) ? 0x7e00 : bits;
      if (back !== expected) mismatches.push(`0x${bits.toString(16)} → 0x${back.toString(16)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it.each([
    [0x3c00, 1],
    [0xbc00, -1],
    [0x7bff, 65504],
    [0x0001, 2 ** -24],
    [0x03ff, 1023 * 2 ** -24],
    [0x0400, 2 ** -14],
    [0x3555, 0.333251953125],
    [0x8000, -0],
    [0x7c00, Infinity],
    [0xfc00, -Infinity],
  ])('decodes pattern %i to its exact value %s', (bits, value) => {
    expect(Object.is(fp16ToNumber(bits), value)).toBe(true);
    expect(numberToFp16(value)).toBe(bits);
  });

  it.each([
    [65519.99, 0x7bff],
    [65520, 0x7c00], // the tie above the largest finite value rounds to even: ∞
    [-1e10, 0xfc00],
    [2 ** -25, 0x0000], // tie between 0 and the smallest subnormal: even is 0
    [2 ** -25 * (1 + 2 ** -30), 0x0001],
    [3 * 2 ** -25, 0x0002], // tie between subnormals 1 and 2
    [-(2 ** -26), 0x8000],
    [1 + 2 ** -11, 0x3c00], // tie at 1: even is 1
    [1 + 3 * 2 ** -11, 0x3c02],
    [2 ** -14 - 2 ** -25, 0x0400], // tie just below the smallest normal rounds up into it
    [NaN, 0x7e00],
    [-NaN, 0x7e00],
  ])('rounds %s to pattern %i', (value, bits) => {
    expect(numberToFp16(value)).toBe(bits);
  });

  it('rounds every midpoint between neighbours to the even one, and points beside it to the nearer', () => {
    const failures: string[] = [];
    for (let bits = 0; bits < 0x7c00; bits++) {
      const low = fp16ToNumber(bits);
      const high = bits === 0x7bff ? 65536 : fp16ToNumber(bits + 1); // 65536 stands for ∞'s rounding boundary
      const middle = (low + high) / 2;
      const nudge = (high - low) * 2 ** -20;
      const even = bits % 2 === 0 ? bits : bits + 1;
      for (const sign of [0, 0x8000]) {
        const s = sign ? -1 : 1;
        const cases: [number, number][] = [
          [middle, even],
          [middle - nudge, bits],
          [middle + nudge, bits + 1],
        ];
        for (const [value, expected] of cases) {
          const got = numberToFp16(s * value);
          if (got !== (sign | expected))
            failures.push(`${s * value} → 0x${got.toString(16)}, want 0x${(sign | expected).toString(16)}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('classifies every pattern into the IEEE classes with the right counts', () => {
    const counts = new Map<Fp16Class, number>();
    for (let bits = 0; bits < 0x10000; bits++) {
      const kind = classifyFp16(bits);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      const value = fp16ToNumber(bits);
      const consistent = {
        zero: value === 0,
        subnormal: value !== 0 && Math.abs(value) < 2 ** -14,
        normal: Math.abs(value) >= 2 ** -14 && Number.isFinite(value),
        infinity: Math.abs(value) === Infinity,
        nan: Number.isNaN(value),
      }[kind];
      if (!consistent) throw new Error(`0x${bits.toString(16)} classified ${kind} but is ${value}`);
    }
    expect(Object.fromEntries(counts)).toEqual({
      zero: 2,
      subnormal: 2 * 1023,
      normal: 2 * 30 * 1024,
      infinity: 2,
      nan: 2 * 1023,
    });
  });
});
