import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { UserError } from '../../../../common/errors.ts';
import type { Fp16Matrix } from '../../../../coruscant/golden/matrix.ts';
import { magnitudePrune, wandaPrune } from '../../../../coruscant/golden/pruning/prune.ts';
import { syntheticLlmLayer } from '../../../../coruscant/golden/pruning/synthetic.ts';
import { propertySeed } from '../formats/arbitraryMatrix.ts';

const seed = propertySeed('tests/golden/pruning/prune.test.ts');

const zerosIn = (bits: Uint16Array): number => bits.reduce((n, b) => n + (b === 0 ? 1 : 0), 0);

/** The fraction of weights kept in the given input channels. */
function keptIn(matrix: Fp16Matrix, channels: readonly number[]): number {
  let kept = 0;
  for (let row = 0; row < matrix.rows; row++)
    for (const c of channels) if (matrix.bits[row * matrix.cols + c] !== 0) kept += 1;
  return kept / (matrix.rows * channels.length);
}

describe('pruning to an exact target sparsity', () => {
  const cases = fc.record({
    rows: fc.integer({ min: 1, max: 40 }),
    cols: fc.integer({ min: 1, max: 80 }),
    sparsity: fc.double({ min: 0, max: 0.99, noNaN: true }),
    layerSeed: fc.integer(),
  });

  it('magnitude: exactly round(s·M·K) zeros, and every kept weight at least as large as every pruned one', () => {
    fc.assert(
      fc.property(cases, ({ rows, cols, sparsity, layerSeed }) => {
        const { weights } = syntheticLlmLayer(rows, cols, layerSeed);
        const pruned = magnitudePrune(weights, sparsity);
        expect(zerosIn(pruned.bits)).toBe(Math.round(sparsity * rows * cols));
        const magnitude = (b: number): number => b & 0x7fff; // FP16 magnitudes order like their bit patterns
        const keptMin = Math.min(...[...pruned.bits].filter((b) => b !== 0).map(magnitude));
        const prunedMax = Math.max(...[...weights.bits].filter((_, i) => pruned.bits[i] === 0).map(magnitude));
        expect(prunedMax).toBeLessThanOrEqual(keptMin);
        // Kept entries are untouched.
        expect(pruned.bits.every((b, i) => b === 0 || b === weights.bits[i])).toBe(true);
      }),
      { seed, numRuns: 60 },
    );
  });

  it('Wanda: exactly round(s·K) zeros in every row', () => {
    fc.assert(
      fc.property(cases, ({ rows, cols, sparsity, layerSeed }) => {
        const { weights, activationNorms } = syntheticLlmLayer(rows, cols, layerSeed);
        const pruned = wandaPrune(weights, activationNorms, sparsity);
        for (let row = 0; row < rows; row++) {
          expect(zerosIn(pruned.bits.subarray(row * cols, (row + 1) * cols))).toBe(Math.round(sparsity * cols));
        }
      }),
      { seed, numRuns: 60 },
    );
  });

  it('breaks ties by index and prunes existing zeros first', () => {
    // Equal magnitudes (±1), one −0 and one +0: zeros go first, then the lowest indices.
    const weights: Fp16Matrix = {
      rows: 1,
      cols: 6,
      bits: Uint16Array.of(0x3c00, 0xbc00, 0x8000, 0x3c00, 0x0000, 0x3c00),
    };
    expect([...magnitudePrune(weights, 0.5).bits]).toEqual([0, 0xbc00, 0, 0x3c00, 0, 0x3c00]);
    expect([...wandaPrune(weights, [1, 1, 1, 1, 1, 1], 0.5).bits]).toEqual([0, 0xbc00, 0, 0x3c00, 0, 0x3c00]);
  });

  it('ranks NaN above infinity, so NaN weights are kept longest', () => {
    const weights: Fp16Matrix = { rows: 1, cols: 4, bits: Uint16Array.of(0x7e00, 0xfc00, 0x3c00, 0x0001) };
    expect([...magnitudePrune(weights, 0.5).bits]).toEqual([0x7e00, 0xfc00, 0, 0]);
    expect([...magnitudePrune(weights, 0.75).bits]).toEqual([0x7e00, 0, 0, 0]);
    expect([...wandaPrune(weights, [1, 1, 1, 1], 0.75).bits]).toEqual([0x7e00, 0, 0, 0]);
  });

  it('Wanda keeps outlier-channel weights that magnitude pruning drops', () => {
    const layer = syntheticLlmLayer(64, 512, 11);
    const byMagnitude = keptIn(magnitudePrune(layer.weights, 0.5), layer.outlierChannels);
    const byWanda = keptIn(wandaPrune(layer.weights, layer.activationNorms, 0.5), layer.outlierChannels);
    expect(layer.outlierChannels.length).toBe(5);
    expect(byMagnitude).toBeGreaterThan(0.4);
    expect(byMagnitude).toBeLessThan(0.6);
    expect(byWanda).toBeGreaterThan(0.95);
  });

  it('rejects sparsities outside [0, 1) as a UserError, and a norm vector of the wrong length', () => {
    const { weights, activationNorms } = syntheticLlmLayer(2, 8, 1);
    for (const sparsity of [1, -0.01, 1.5, NaN]) {
      expect(() => magnitudePrune(weights, sparsity)).toThrow(UserError);
      expect(() => wandaPrune(weights, activationNorms, sparsity)).toThrow(UserError);
    }
    expect(() => wandaPrune(weights, activationNorms.subarray(1), 0.5)).toThrow(/8 columns, 7 norms/);
  });
});
