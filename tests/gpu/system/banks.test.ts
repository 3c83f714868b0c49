/** Shared-memory bank behaviour of the decompression steps the timing model charges. */
import { describe, expect, it } from 'vitest';
import { decompressionBankConflicts } from '../../../gpu/memory/decompressionBankConflicts.ts';
import {
  ALGORITHM1_STEP_CYCLES,
  algorithm1WavefrontsPerStore,
  blockAlgorithm1Steps,
  flashLlmWavefrontsPerStore,
  iterationCosts,
  meanAlgorithm1Steps,
} from '../../../gpu/system/kernelCosts.ts';
import { layoutFromBitmaps, randomLayout } from '../../../gpu/system/sparseLayout.ts';

describe('decompression bank conflicts on real layouts', () => {
  it.each([0.3, 0.5, 0.7])(
    'column-wise tiling (Coruscant) is conflict-free at %s sparsity; row-wise tiling is not',
    (sparsity) => {
      const layout = randomLayout(512, 512, sparsity, 3);
      expect(algorithm1WavefrontsPerStore(layout)).toBe(1);
      const bitmaps = Array.from(
        { length: 64 },
        (_, i) => (BigInt(layout.kernel.bitmapHi[i]!) << 32n) | BigInt(layout.kernel.bitmapLo[i]!),
      );
      expect(decompressionBankConflicts('row', bitmaps).conflictWavefronts).toBeGreaterThan(0);
    },
  );

  it('Algorithm 1 runs as many steps as the fullest tile of each slot (about 64·density plus the spread)', () => {
    const layout = randomLayout(512, 512, 0.5, 3);
    const steps = meanAlgorithm1Steps(layout);
    expect(steps).toBeGreaterThan(2 * 32);
    expect(steps).toBeLessThan(2 * 48);
  });

  it("Flash-LLM's extract, with items in scan order, does conflict", () => {
    expect(flashLlmWavefrontsPerStore(randomLayout(512, 512, 0.5, 3))).toBeGreaterThan(1);
  });
});

describe("Algorithm 1's chain waits for the block's slowest warp", () => {
  it('one full warp among three empty ones sets the chain; the issue slots follow the mean', () => {
    // 256×64: the block's four warps on row blocks 0…3; only row block 0's tiles are full.
    const tiles = 4 * 64;
    const hi = new Uint32Array(tiles);
    const lo = new Uint32Array(tiles);
    hi.fill(0xffffffff, 0, 64);
    lo.fill(0xffffffff, 0, 64);
    const layout = layoutFromBitmaps(256, 64, hi, lo);
    expect(meanAlgorithm1Steps(layout)).toBe((2 * 64) / 4);
    expect(blockAlgorithm1Steps(layout)).toBe(2 * 64);
    expect(iterationCosts('coruscant', layout, 8).decompressChainCycles).toBeGreaterThan(
      2 * 64 * ALGORITHM1_STEP_CYCLES,
    );
  });
});
