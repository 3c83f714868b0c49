import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeKernelFormat, kernelFormatBytes } from '../../../../coruscant/golden/formats/kernelFormat.ts';
import { encodeTiledCsl, tiledCslBytes } from '../../../../coruscant/golden/formats/tiledCsl.ts';
import {
  exactSizes,
  measureMatrix,
  paperSizes,
  stripsOf,
  type FormatSize,
  type SizeFormat,
} from '../../../../coruscant/golden/formats/sizes.ts';
import { computeSizeReport, type SizeReport } from '../../../../coruscant/golden/formats/sizeReport.ts';
import { magnitudePrune, wandaPrune } from '../../../../coruscant/golden/pruning/prune.ts';
import { syntheticLlmLayer } from '../../../../coruscant/golden/pruning/synthetic.ts';
import type { Fp16Matrix } from '../../../../coruscant/golden/matrix.ts';
import { arbitraryFp16Matrix, propertySeed } from './arbitraryMatrix.ts';

const seed = propertySeed('tests/golden/formats/sizes.test.ts');

const percent = (sizes: FormatSize[], format: SizeFormat): number | null =>
  sizes.find((s) => s.format === format)!.percentOfDense;

describe('size model, paper accounting (Fig. 3, 9216×9216)', () => {
  const at = (sparsity: number): FormatSize[] => paperSizes(9216, 9216, sparsity, false);
  it('gives Coruscant exactly 56.25 % at 50 % and 36.25 % at 70 %', () => {
    expect(percent(at(0.5), 'Coruscant')).toBe(56.25);
    expect(percent(at(0.7), 'Coruscant')).toBeCloseTo(36.25, 10);
  });
  it('puts CSR and Tiled-CSL above 100 % at 50 %, and COO at 90 % at 70 %', () => {
    expect(percent(at(0.5), 'CSR')).toBeGreaterThan(100);
    expect(percent(at(0.5), 'Tiled-CSL')).toBeGreaterThan(100);
    expect(percent(at(0.7), 'COO')).toBeCloseTo(90, 10);
  });
  it('marks 2:4 not applicable unless the mask is 2:4', () => {
    expect(percent(at(0.5), '2:4')).toBeNull();
    expect(percent(paperSizes(9216, 9216, 0.5, true), '2:4')).toBe(56.25);
  });
});

/** Nonzeros, longest row and the 2:4 property, the slow obvious way. */
function scanSlowly(matrix: Fp16Matrix): { nonzeros: number; maxRow: number; is24: boolean } {
  let nonzeros = 0;
  let maxRow = 0;
  let is24 = true;
  for (let r = 0; r < matrix.rows; r++) {
    const row = [...matrix.bits.subarray(r * matrix.cols, (r + 1) * matrix.cols)].map((b) => (b !== 0 ? 1 : 0));
    nonzeros += row.reduce((a, b) => a + b, 0 as number);
    maxRow = Math.max(
      maxRow,
      row.reduce((a, b) => a + b, 0 as number),
    );
    for (let g = 0; g < row.length; g += 4)
      if (row.slice(g, g + 4).reduce((a, b) => a + b, 0 as number) > 2) is24 = false;
  }
  return { nonzeros, maxRow, is24 };
}

describe('size model, exact accounting', () => {
  it('counts exactly the bytes of the real Coruscant and Tiled-CSL encodings, whatever the shape', () => {
    fc.assert(
      fc.property(arbitraryFp16Matrix(300), (matrix) => {
        const measured = measureMatrix(stripsOf(matrix));
        expect(measured.coruscantBytes).toBe(kernelFormatBytes(encodeKernelFormat(matrix)));
        expect(measured.tiledCslBytes).toBe(tiledCslBytes(encodeTiledCsl(matrix)));
        const slow = scanSlowly(matrix);
        expect([measured.nonzeros, measured.maxRowNonzeros, measured.satisfies24]).toEqual([
          slow.nonzeros,
          slow.maxRow,
          slow.is24,
        ]);
      }),
      { seed, numRuns: 60 },
    );
  });

  it('sizes a 2:4 matrix, and only a 2:4 matrix, in the 2:4 format', () => {
    // Row pattern 1 1 0 0 | 0 1 0 1 | 1 — the trailing short group holds one nonzero.
    const row = [1, 1, 0, 0, 0, 1, 0, 1, 1];
    const twoFour: Fp16Matrix = {
      rows: 4,
      cols: 9,
      bits: Uint16Array.from({ length: 36 }, (_, i) => row[i % 9]! * 0x3c00),
    };
    const sizes = exactSizes(measureMatrix(stripsOf(twoFour)));
    // 3 groups per row: 3·2 values·2 B + one 16-bit metadata word, times 4 rows.
    expect(sizes.find((s) => s.format === '2:4')!.bytes).toBe(4 * (3 * 4 + 2));
    const broken = { ...twoFour, bits: twoFour.bits.map((b, i) => (i === 2 ? 0x3c00 : b)) };
    expect(percent(exactSizes(measureMatrix(stripsOf(broken))), '2:4')).toBeNull();
  });

  it('keeps Coruscant exact at or above paper, within the offset and padding overhead, and the mask at the exact sparsity', () => {
    const report = computeSizeReport({
      source: { kind: 'random', rows: 1024, cols: 2048, seed: 7 },
      sparsities: [0.3, 0.5, 0.7],
      accountings: ['paper', 'exact'],
    });
    for (const sparsity of report.sparsities) {
      const get = (accounting: string, format: SizeFormat) =>
        report.entries.find((e) => e.accounting === accounting && e.format === format && e.sparsity === sparsity)!;
      const [paper, exact] = [get('paper', 'Coruscant').percentOfDense!, get('exact', 'Coruscant').percentOfDense!];
      expect(exact).toBeGreaterThanOrEqual(paper);
      // uint32 offsets cost 3.125 %; ×8-halves padding at most 7 halves per 64-row tile (10.9 %).
      expect(exact - paper).toBeLessThan(3.125 + 10.94);
      // COO has no padding: its exact size pins the mask's nonzero count to round((1−s)·M·K).
      const nonzeros = get('exact', 'COO').bytes! / 6;
      expect(nonzeros).toBe(1024 * 2048 - Math.round(sparsity * 1024 * 2048));
    }
  });
});

describe('sizes of pruned weights', () => {
  const layer = syntheticLlmLayer(256, 512, 21);
  const get = (report: SizeReport, accounting: string, format: SizeFormat) =>
    report.entries.find((e) => e.accounting === accounting && e.format === format)!.percentOfDense!;

  it('Wanda prunes every row equally, so ELL fits exactly; magnitude pruning leaves ragged rows', () => {
    const wanda = computeSizeReport({
      source: {
        kind: 'pruned',
        weights: layer.weights,
        prune: (w, s) => wandaPrune(w, layer.activationNorms, s),
        description: 'synthetic, Wanda',
      },
      sparsities: [0.5],
      accountings: ['paper', 'exact'],
    });
    expect(get(wanda, 'exact', 'ELL')).toBe(100);
    expect(get(wanda, 'exact', 'COO')).toBe(150);
    const magnitude = computeSizeReport({
      source: { kind: 'pruned', weights: layer.weights, prune: magnitudePrune, description: 'synthetic, magnitude' },
      sparsities: [0.5],
      accountings: ['paper', 'exact'],
    });
    expect(magnitude.matrix).toBe('synthetic, magnitude');
    expect(get(magnitude, 'exact', 'ELL')).toBeGreaterThan(100);
    expect(get(magnitude, 'exact', 'COO')).toBe(150);
    expect(get(magnitude, 'exact', 'Coruscant')).toBeGreaterThan(get(magnitude, 'paper', 'Coruscant'));
  });
});
