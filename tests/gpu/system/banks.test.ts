/** Shared-memory bank behaviour of the decompression steps the timing model charges. */
import { describe, expect, it } from 'vitest';
import { decompressionBankConflicts } from '../../../gpu/memory/decompressionBankConflicts.ts';
import {
  algorithm1WavefrontsPerStore,
  flashLlmWavefrontsPerStore,
  meanAlgorithm1Steps,
} from '../../../gpu/system/kernelCosts.ts';
import { randomLayout } from '../../../gpu/system/sparseLayout.ts';

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
