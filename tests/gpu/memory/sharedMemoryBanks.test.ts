import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decompressionBankConflicts, randomTileBitmaps } from '../../../gpu/memory/decompressionBankConflicts.ts';
import { sharedMemoryWavefronts } from '../../../gpu/memory/sharedMemoryBanks.ts';
import { fastCheckSeed } from './seed.ts';

const lanes = (f: (t: number) => number): number[] => Array.from({ length: 32 }, (_, t) => f(t));
const ALL_ONES = (1n << 64n) - 1n;

describe('shared-memory banks', () => {
  it('stride of one word: one wavefront', () => {
    expect(sharedMemoryWavefronts(lanes((t) => 4 * t))).toBe(1);
  });

  it('stride of 32 words: every thread in bank 0, 32 wavefronts', () => {
    expect(sharedMemoryWavefronts(lanes((t) => 128 * t))).toBe(32);
  });

  it('stride of 2 words: 2 wavefronts', () => {
    expect(sharedMemoryWavefronts(lanes((t) => 8 * t))).toBe(2);
  });

  it('one word for all threads (broadcast) and halves of one word: one wavefront', () => {
    expect(sharedMemoryWavefronts(lanes(() => 40))).toBe(1);
    expect(sharedMemoryWavefronts(lanes((t) => 2 * t))).toBe(1);
  });

  it('counts only active threads', () => {
    expect(
      sharedMemoryWavefronts(
        lanes((t) => 128 * t),
        0b111,
      ),
    ).toBe(3);
    expect(
      sharedMemoryWavefronts(
        lanes((t) => 128 * t),
        0,
      ),
    ).toBe(0);
  });
});

describe('decompression tilings (paper Fig. 9)', () => {
  it('dense tiles: row-wise serializes 32-way, rectangular 8-way, column-wise never', () => {
    const dense = new Array<bigint>(64).fill(ALL_ONES);
    const wavefronts = (tiling: 'row' | 'rectangular' | 'column'): number =>
      decompressionBankConflicts(tiling, dense).wavefronts;
    expect(decompressionBankConflicts('column', dense)).toEqual({
      tiling: 'column',
      storeInstructions: 128,
      wavefronts: 128,
      conflictWavefronts: 0,
      worstStoreWavefronts: 1,
    });
    expect(wavefronts('row')).toBe(128 * 32);
    expect(wavefronts('rectangular')).toBe(128 * 8);
  });

  it('column-wise tiling is conflict-free for every sparsity pattern; row-wise is not', () => {
    const seed = fastCheckSeed('decompression tilings');
    const bitmap = fc.bigInt({ min: 0n, max: ALL_ONES });
    fc.assert(
      fc.property(fc.array(bitmap, { minLength: 64, maxLength: 64 }), (bitmaps) => {
        expect(decompressionBankConflicts('column', bitmaps).conflictWavefronts).toBe(0);
      }),
      { seed, numRuns: 100 },
    );
    for (const sparsity of [0.3, 0.5, 0.7]) {
      const bitmaps = randomTileBitmaps(sparsity, 42);
      expect(decompressionBankConflicts('column', bitmaps).conflictWavefronts).toBe(0);
      expect(decompressionBankConflicts('row', bitmaps).conflictWavefronts).toBeGreaterThan(0);
      expect(decompressionBankConflicts('rectangular', bitmaps).conflictWavefronts).toBeGreaterThan(0);
    }
  });

  it('issues one store per step with an active thread, the same for every tiling', () => {
    const bitmaps = randomTileBitmaps(0.5, 1);
    const maxNnz = (tile: number): number =>
      Math.max(...bitmaps.filter((_, i) => i % 2 === tile).map((b) => b.toString(2).split('1').length - 1));
    for (const tiling of ['row', 'rectangular', 'column'] as const) {
      expect(decompressionBankConflicts(tiling, bitmaps).storeInstructions).toBe(maxNnz(0) + maxNnz(1));
    }
  });

  it('rejects the wrong number of bitmaps', () => {
    expect(() => decompressionBankConflicts('column', [1n])).toThrow(/64 tile bitmaps/);
  });
});
