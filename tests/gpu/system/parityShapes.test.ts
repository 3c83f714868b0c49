/**
 * The harness on the seven shapes beside the calibration table (results/2026-12-02/harness.txt,
 * the H200; `H200_PARITY_ROWS`): where the STC proxy and cuBLAS come near parity and K reaches
 * 28672. All four kernels are held here, each kernel's time and its ratio to cuBLAS, with silicon's
 * winner, so that a model change that moves one kernel at large K against the others shows up.
 * cuBLAS's kernel does not depend on the sparsity, so a shape's two rows are two runs of the same
 * call: its time is their mean (they differ by up to 17 %, at 14336 × 4096, where one run alone
 * would move a paper kernel's ratio by as much). One difference between two of the shapes is a
 * known miss, held in place below.
 */
import { describe, expect, it } from 'vitest';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { H200_PARITY_ROWS } from '../h200Silicon.ts';
import { harnessRuns, modelH200Cell } from './support.ts';

/** The harness's label for each of the model's kernels. */
const LABELS: Record<SpmmKernel, string> = {
  dense: 'CuBlas_TC',
  flashllm: 'FlashLLM',
  coruscant: 'Coruscant',
  stc: 'Coruscant_STC',
};

const SPARSE_KERNELS = ['flashllm', 'coruscant', 'stc'] as const;

/** What sets a shape's figure, where a mechanism of its own does (docs/system-model.md). */
const NOTES: Record<string, string> = {
  '14336 × 4096':
    "448 blocks: the 52 past the first 396 take the slots that free first, and the blocks' start and end decide the STC proxy's winner",
  '2048 × 28672': '64 blocks, one on half of the SMs, 56 iterations each',
  '4096 × 28672': '128 blocks, one per SM, 56 iterations each',
};

/** Modelled µs by kernel, shape and sparsity; the dense kernel does not depend on the sparsity. */
const modelled = new Map<string, number>();
function modelUs(kernel: SpmmKernel, m: number, k: number, sparsity: number): number {
  const key = `${kernel} ${m} ${k} ${kernel === 'dense' ? '' : sparsity}`;
  if (!modelled.has(key)) modelled.set(key, modelH200Cell(kernel, m, k, sparsity).timeNs / 1000);
  return modelled.get(key)!;
}

/** cuBLAS's µs at a shape: the mean of its runs there. */
function siliconCublasUs(m: number, k: number): number {
  const runs = H200_PARITY_ROWS.filter((row) => row.m === m && row.k === k);
  return runs.reduce((sum, row) => sum + row.cublas, 0) / runs.length;
}

const percent = (ratio: number): string => `${ratio >= 1 ? '+' : '−'}${Math.abs(100 * (ratio - 1)).toFixed(1)} %`;

describe('the harness beside the calibration table (h200, N = 8, split-K 8): all four kernels', () => {
  it("the rows are harness.txt's, to its 10 ns", () => {
    const runs = harnessRuns('2026-12-02/harness.txt');
    for (const row of H200_PARITY_ROWS) {
      const run = runs.find((r) => r.m === row.m && r.k === row.k && r.sparsity === row.sparsity && r.splitK === 8);
      expect(run, `${row.m} × ${row.k} at ${row.sparsity}`).toBeDefined();
      const fromFile = Object.fromEntries(
        (['dense', ...SPARSE_KERNELS] as const).map((kernel) => [kernel, run!.us[LABELS[kernel]]!.toFixed(2)]),
      );
      expect(fromFile).toEqual({
        dense: row.cublas.toFixed(2),
        flashllm: row.flashllm.toFixed(2),
        coruscant: row.coruscant.toFixed(2),
        stc: row.stc.toFixed(2),
      });
    }
  });

  const shapes = [...new Set(H200_PARITY_ROWS.map((row) => `${row.m} × ${row.k}`))];
  it.each(shapes)(
    "%s: every kernel's time and each paper kernel's ratio to cuBLAS within 15 %, with silicon's winner",
    (shape) => {
      const report: string[] = NOTES[shape] ? [NOTES[shape]] : [];
      const failures: string[] = [];
      for (const row of H200_PARITY_ROWS.filter((r) => `${r.m} × ${r.k}` === shape)) {
        const dense = modelUs('dense', row.m, row.k, row.sparsity);
        const cublas = siliconCublasUs(row.m, row.k);
        const silicon: Record<SpmmKernel, number> = {
          dense: cublas,
          flashllm: row.flashllm,
          coruscant: row.coruscant,
          stc: row.stc,
        };
        for (const kernel of ['dense', ...SPARSE_KERNELS] as const) {
          const model = modelUs(kernel, row.m, row.k, row.sparsity);
          const time = model / silicon[kernel];
          const line = `${row.sparsity} ${kernel}: ${model.toFixed(1)} µs against ${silicon[kernel].toFixed(2)} (${percent(time)})`;
          if (Math.abs(time - 1) >= 0.15) failures.push(`${line}: time`);
          if (kernel === 'dense') {
            report.push(line);
            continue;
          }
          const modelRatio = dense / model;
          const siliconRatio = cublas / silicon[kernel];
          report.push(
            `${line}, ${modelRatio.toFixed(2)}× cuBLAS against ${siliconRatio.toFixed(2)}× (${percent(modelRatio / siliconRatio)})`,
          );
          if (Math.abs(modelRatio / siliconRatio - 1) >= 0.15) failures.push(`${line}: ratio`);
          if (modelRatio > 1 !== siliconRatio > 1) failures.push(`${line}: winner`);
        }
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
    const row = (m: number) => H200_PARITY_ROWS.find((r) => r.m === m && r.k === 28672 && r.sparsity === 0.5)!;
    expect(row(4096).flashllm / row(2048).flashllm).toBeLessThan(1.05);
    expect(modelUs('flashllm', 4096, 28672, 0.5) / modelUs('flashllm', 2048, 28672, 0.5)).toBeGreaterThan(1.15);
    for (const kernel of ['coruscant', 'stc'] as const) {
      expect(row(4096)[kernel] / row(2048)[kernel], kernel).toBeLessThan(1.05);
      expect(modelUs(kernel, 4096, 28672, 0.5) / modelUs(kernel, 2048, 28672, 0.5), kernel).toBeLessThan(1.05);
    }
  }, 300_000);
});
