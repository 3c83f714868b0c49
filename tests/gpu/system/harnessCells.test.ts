/**
 * Every cell the paper's harness ran on the H200 beyond the calibration table (h200Cells.ts
 * `HARNESS_FILES`: the shapes near parity and at large K, 7168² and 9216² by split-K, one block per
 * SM on 32 … 128 SMs at three K, and K 7168 from one block per SM to two): all four kernels, each
 * kernel's time and each paper kernel's ratio to cuBLAS within 15 %, with silicon's winner. The
 * cells outside are named below with what the model lacks there; each must still miss, so that the
 * list and the docs (docs/system-model.md, "The harness's cells beyond the calibration table") change with the model.
 */
import { describe, expect, it } from 'vitest';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { H200_PARITY_ROWS } from '../h200Silicon.ts';
import { cellName, describeCell, HARNESS_LABELS, harnessCells, PAPER_KERNELS } from './h200Cells.ts';
import { harnessRuns } from './support.ts';

const BOUND = 0.15;

const SMALL_GRID =
  "one block per SM on 32 SMs: silicon's one-block iteration is about what it is on 64 and 128 (on the H200 3,448 / 3,468 / 3,747 cycles, flashgrid; read cold, flat to 64 SMs, and what grows past them is the waits on DRAM, gridsites), the model's carries the DRAM's drain of the whole grid's burst in lockstep, which a lone block does not see and which shrinks with the grid (3,005 on 32 SMs)";
const SMALL_CUBLAS =
  "cuBLAS at 1024 and 2048 rows is slower than its measured rate gives (the model 9–17 % fast; its runs there move by up to 29 %: 14.81 … 17.10 µs at 1024 × 7168, 19.07 … 24.53 at 2048), so the paper's kernels' ratios to it miss beside their times within 15 %";
const AT_PARITY =
  "at parity: silicon's STC proxy and cuBLAS take the same time (ratio 1.00 over their medians), the model 1.04×, within the ratio bound";
const LARGE_K_STC =
  "the STC proxy on 128 SMs of one block, 56 iterations (5–10 % fast: silicon's one-block iteration grows 4–7 % from 64 to 128 SMs in its waits on DRAM, gridsites, which the model's DRAM does not show) beside cuBLAS reading this shape faster than its measured rate (the model 10 % slow)";

/** The cells outside 15 %, by `cellName` and what misses, with why. */
const KNOWN_MISSES: Readonly<Record<string, string>> = {
  '1024 × 14336 0.5 flashllm: time': SMALL_GRID,
  '1024 × 28672 0.5 flashllm: time': SMALL_GRID,
  '1024 × 28672 0.5 flashllm: ratio': SMALL_GRID,
  '1024 × 7168 0.5 dense: time': SMALL_CUBLAS,
  '1024 × 7168 0.5 coruscant: ratio': SMALL_CUBLAS,
  '2048 × 7168 0.5 dense: time': SMALL_CUBLAS,
  '2048 × 7168 0.5 coruscant: ratio': SMALL_CUBLAS,
  '2048 × 7168 0.5 stc: ratio': SMALL_CUBLAS,
  '1024 × 14336 0.5 coruscant: ratio': SMALL_CUBLAS,
  '2048 × 14336 0.5 coruscant: ratio': SMALL_CUBLAS,
  '7168 × 7168 0.5 split-K 14 stc: winner': AT_PARITY,
  '7168 × 7168 0.5 split-K 12 stc: winner':
    "near parity, within the ratio bound on the other side: the model 1.01× against silicon's 0.90× (the STC proxy's one run; the model 7 % fast)",
  '4096 × 28672 0.5 stc: ratio': LARGE_K_STC,
  '4096 × 28672 0.7 stc: ratio': LARGE_K_STC,
};

describe("the harness's cells beyond the calibration table (h200, N = 8): all four kernels", () => {
  it("the near-parity rows (H200_PARITY_ROWS) are harness.txt's, to its 10 ns", () => {
    const runs = harnessRuns('2026-12-02/harness.txt');
    for (const row of H200_PARITY_ROWS) {
      const run = runs.find((r) => r.m === row.m && r.k === row.k && r.sparsity === row.sparsity && r.splitK === 8);
      expect(run, `${row.m} × ${row.k} at ${row.sparsity}`).toBeDefined();
      const fromFile = Object.fromEntries(
        (['dense', ...PAPER_KERNELS] as const).map((kernel) => [kernel, run!.us[HARNESS_LABELS[kernel]]!.toFixed(2)]),
      );
      expect(fromFile).toEqual({
        dense: row.cublas.toFixed(2),
        flashllm: row.flashllm.toFixed(2),
        coruscant: row.coruscant.toFixed(2),
        stc: row.stc.toFixed(2),
      });
    }
  });

  it("every kernel's time and each paper kernel's ratio to cuBLAS within 15 % with silicon's winner, but for the known misses, which still miss", () => {
    const cells = harnessCells();
    expect(new Set(cells.map((cell) => `${cell.m} ${cell.k} ${cell.sparsity} ${cell.splitK}`)).size).toBe(29);
    const misses: string[] = [];
    for (const cell of cells) {
      const name = cellName(cell);
      if (Math.abs(cell.modelUs / cell.siliconUs - 1) >= BOUND) misses.push(`${name}: time`);
      if (!cell.ratios) continue;
      if (Math.abs(cell.ratios.model / cell.ratios.silicon - 1) >= BOUND) misses.push(`${name}: ratio`);
      if (cell.ratios.model > 1 !== cell.siliconWins) misses.push(`${name}: winner`);
    }
    const report = cells.map(describeCell).join('\n');
    expect(
      misses.filter((miss) => !(miss in KNOWN_MISSES)),
      `new misses\n${report}`,
    ).toEqual([]);
    expect(
      Object.keys(KNOWN_MISSES).filter((miss) => !misses.includes(miss)),
      `known misses gone\n${report}`,
    ).toEqual([]);
  }, 600_000);

  // Known miss: with one block per SM, silicon's Flash-LLM takes about as long on 64 SMs as on 128
  // (the other kernels too), where the model's one-block iteration carries the DRAM's drain of the
  // whole grid's burst and grows with it (docs/system-model.md, "The harness's cells beyond the calibration table"). When
  // the model's one-block iteration stops following the grid's size, this test fails, so that the
  // docs and the known misses are updated with it.
  it("K 28672, 64 → 128 blocks of one per SM: silicon's Flash-LLM +4 %, the model's over 15 % (known miss)", () => {
    const cells = harnessCells();
    const cellAt = (m: number, kernel: SpmmKernel) =>
      cells.find((cell) => cell.m === m && cell.k === 28672 && cell.sparsity === 0.5 && cell.kernel === kernel)!;
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
