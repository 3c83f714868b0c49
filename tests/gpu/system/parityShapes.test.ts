/**
 * The harness on the seven shapes beside the calibration table (results/2026-12-02/harness.txt,
 * the H200; `H200_PARITY_ROWS`): where the STC proxy and cuBLAS come near parity and K reaches
 * 28672. All four kernels are held here, each kernel's time and its ratio to cuBLAS, with silicon's
 * winner, so that a model change that moves one kernel at large K against the others shows up
 * (cuBLAS at a shape: the mean of its two runs, h200Cells.ts `parityCells`). One difference between
 * two of the shapes is a known miss, held in place below.
 */
import { describe, expect, it } from 'vitest';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { H200_PARITY_ROWS } from '../h200Silicon.ts';
import { describeCell, PAPER_KERNELS, parityCells } from './h200Cells.ts';
import { harnessRuns } from './support.ts';

/** The harness's label for each of the model's kernels. */
const LABELS: Record<SpmmKernel, string> = {
  dense: 'CuBlas_TC',
  flashllm: 'FlashLLM',
  coruscant: 'Coruscant',
  stc: 'Coruscant_STC',
};

/** What sets a shape's figure, where a mechanism of its own does (docs/system-model.md). */
const NOTES: Record<string, string> = {
  '14336 × 4096':
    "448 blocks: the 52 past the first 396 take the slots that free first, and the blocks' start and end decide the STC proxy's winner",
  '2048 × 28672': '64 blocks, one on half of the SMs, 56 iterations each',
  '4096 × 28672': '128 blocks, one per SM, 56 iterations each',
};

const BOUND = 0.15;

describe('the harness beside the calibration table (h200, N = 8, split-K 8): all four kernels', () => {
  it("the rows are harness.txt's, to its 10 ns", () => {
    const runs = harnessRuns('2026-12-02/harness.txt');
    for (const row of H200_PARITY_ROWS) {
      const run = runs.find((r) => r.m === row.m && r.k === row.k && r.sparsity === row.sparsity && r.splitK === 8);
      expect(run, `${row.m} × ${row.k} at ${row.sparsity}`).toBeDefined();
      const fromFile = Object.fromEntries(
        (['dense', ...PAPER_KERNELS] as const).map((kernel) => [kernel, run!.us[LABELS[kernel]]!.toFixed(2)]),
      );
      expect(fromFile).toEqual({
        dense: row.cublas.toFixed(2),
        flashllm: row.flashllm.toFixed(2),
        coruscant: row.coruscant.toFixed(2),
        stc: row.stc.toFixed(2),
      });
    }
  });

  const shapes = [...new Map(H200_PARITY_ROWS.map((row) => [`${row.m} × ${row.k}`, row])).entries()];
  it.each(shapes)(
    "%s: every kernel's time and each paper kernel's ratio to cuBLAS within 15 %, with silicon's winner",
    (shape, { m, k }) => {
      const report: string[] = NOTES[shape] ? [NOTES[shape]] : [];
      const failures: string[] = [];
      for (const cell of parityCells(m, k)) {
        const line = describeCell(cell);
        report.push(line);
        if (Math.abs(cell.modelUs / cell.siliconUs - 1) >= BOUND) failures.push(`${line}: time`);
        if (!cell.ratios) continue;
        if (Math.abs(cell.ratios.model / cell.ratios.silicon - 1) >= BOUND) failures.push(`${line}: ratio`);
        if (cell.ratios.model > 1 !== cell.siliconWins) failures.push(`${line}: winner`);
      }
      expect(failures, report.join('\n')).toEqual([]);
    },
    300_000,
  );

  // Known miss: with one block per SM, silicon's Flash-LLM takes about as long on 64 SMs as on 128
  // (the other kernels too), where the model's one-block iteration carries the DRAM's drain of the
  // whole grid's burst and grows with it (docs/system-model.md, "The grid's size at large K"). When
  // the model's one-block iteration stops following the grid's size, this test fails, so that the
  // docs and the known misses are updated with it.
  it("K 28672, 64 → 128 blocks of one per SM: silicon's Flash-LLM +4 %, the model's over 15 % (known miss)", () => {
    const cellAt = (m: number, kernel: SpmmKernel) =>
      parityCells(m, 28672).find((cell) => cell.kernel === kernel && cell.sparsity === 0.5)!;
    const growth = (kernel: SpmmKernel, side: 'modelUs' | 'siliconUs') =>
      cellAt(4096, kernel)[side] / cellAt(2048, kernel)[side];
    expect(growth('flashllm', 'siliconUs')).toBeLessThan(1.05);
    expect(growth('flashllm', 'modelUs')).toBeGreaterThan(1.15);
    for (const kernel of ['coruscant', 'stc'] as const) {
      expect(growth(kernel, 'siliconUs'), kernel).toBeLessThan(1.05);
      expect(growth(kernel, 'modelUs'), kernel).toBeLessThan(1.05);
    }
  }, 300_000);
});
