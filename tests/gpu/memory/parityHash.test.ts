import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileParityHash, foldedSliceMasks, xorFoldMasks } from '../../../gpu/memory/parityHash.ts';
import { fastCheckSeed } from './seed.ts';

/** Bit-by-bit parity with BigInt: the obvious definition. */
function referenceParityHash(masks: readonly number[], address: number): number {
  return masks.reduce((out, mask, i) => {
    let x = BigInt(address) & BigInt(mask);
    let parity = 0;
    while (x !== 0n) {
      parity ^= Number(x & 1n);
      x >>= 1n;
    }
    return out | (parity << i);
  }, 0);
}

describe('parity hashes', () => {
  it('match the bit-by-bit definition on 53-bit addresses and masks', () => {
    const seed = fastCheckSeed('parity hash');
    const safe = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
    fc.assert(
      fc.property(fc.array(safe, { minLength: 1, maxLength: 12 }), safe, (masks, address) => {
        expect(compileParityHash(masks)(address)).toBe(referenceParityHash(masks, address));
      }),
      { seed, numRuns: 200 },
    );
  });

  it('XOR-folds: bit i gathers address bits lowBit+i, lowBit+i+bits, …', () => {
    expect(xorFoldMasks(2, 7, 12)).toEqual([2 ** 7 + 2 ** 9 + 2 ** 11, 2 ** 8 + 2 ** 10]);
    const fold = compileParityHash(xorFoldMasks(7, 7));
    expect(fold(0x80)).toBe(1);
    expect(fold(0x80 << 7)).toBe(1);
    expect(fold(0x80 + (0x80 << 7))).toBe(0);
  });

  it('folded slice/set masks are a bijection on an aligned run of q', () => {
    const { parityMasks, setIndexMasks } = foldedSliceMasks(2, 6);
    const parity = compileParityHash(parityMasks);
    const set = compileParityHash(setIndexMasks);
    const seen = new Set<number>();
    for (let q = 5 * 256; q < 6 * 256; q++) seen.add(parity(q) * 64 + set(q));
    expect(seen.size).toBe(256);
  });
});
