/**
 * The SpMM table of the H200 silicon measurements (docs/reference/h200-silicon.md §2: split-K 8,
 * N = 8) through the timing model on the `h200` profile: kernel / cuBLAS and STC / cuBLAS speedups
 * within 15 % (issue #32's bound for the paper's kernels; the dense baseline is cuBLAS at its measured
 * DRAM rate and reduction kernel, computeProfiles.ts `denseLibrary`) and the faster of each pair the same as on silicon, in every cell, and the kernels'
 * own times within 15 % (the software kernel was held to 10 % until the SMs' measured clock under
 * mma.sync, 1.8 GHz, made its chain 5–6 % longer: its per-instruction latencies are assumptions,
 * kernelCosts.ts; 7168² 50 % is at +10.4 %; the harness's
 * times carry its launch overhead, which the profile's launchNs models). The parameters are the
 * profiles'; nothing is set per cell, and no cell is excused (the STC's winner at 9216² 50 % was,
 * until the dense baseline took its memory time from its measured rate alone: docs/system-model.md,
 * "The dense baseline's pace"). Flash-LLM's cells are checked beside them: within 15 % and silicon's
 * winner. Every time and ratio is silicon's mean over the cell's four runs, the table's and the
 * three repeats of 2026-12-02 (`siliconMean`; one run moves cuBLAS by up to ±10 %); a winner is
 * silicon's only where all four agree (`siliconWinner`); near parity they do not always. The STC
 * kernel alone, less its launch and reduction, is held to the span the marked proxy measured on the
 * same cells (the tenth batch).
 */
import { describe, expect, it } from 'vitest';
import { H200_SPMM_ROWS, H200_STC_SPAN_ROWS, siliconMean, siliconWinner } from '../h200Silicon.ts';
import { calibrationCells, calibrationTiming, describeCell, PAPER_KERNELS } from './h200Cells.ts';

/** Bounds on |model / silicon − 1|: the speedup ratios (the target) and each kernel's own time. */
const RATIO_BOUND = 0.15;
const TIME_BOUND = 0.15;

/**
 * Flash-LLM (h200-silicon.md §2 measures it beside the paper's kernels): its time within 15 % and
 * Flash-LLM / cuBLAS with silicon's winner in every cell where silicon's runs agree on it. 9216² 60 %
 * was the one miss (model 1.01×, silicon 0.80–0.84×) until the blocks that burst in lockstep also
 * stored their tiles in one window (timingModel.ts, the store path).
 */
const FLASHLLM_TIME_BOUND = 0.15;

describe('h200 SpMM against silicon (split-K 8, N = 8)', () => {
  it("silicon's runs disagree on the winner in four cells near parity, and only there", () => {
    const undecided = H200_SPMM_ROWS.flatMap((row) =>
      PAPER_KERNELS.filter((kernel) => siliconWinner(row.size, row.sparsity, kernel) === undefined).map(
        (kernel) => `${row.size} ${row.sparsity} ${kernel}`,
      ),
    );
    expect(undecided).toEqual(['7168 0.5 stc', '7168 0.6 stc', '7168 0.7 flashllm', '9216 0.7 flashllm']);
    // The mean of the table's run (35 / 32 µs) and the repeats (36.96 / 34.37, 38.62 / 33.46, 38.57 / 32.48).
    expect(siliconMean(7168, 0.7).cublas).toBeCloseTo(37.29, 2);
    expect(siliconMean(7168, 0.7).stc).toBeCloseTo(33.08, 2);
  });

  for (const size of [7168, 9216]) {
    it(`${size}×${size}: speedups over cuBLAS within 15 %, silicon's winner where its runs agree and the kernels' times in every cell; Flash-LLM's time and winner`, () => {
      const report: string[] = [];
      const failures: string[] = [];
      for (const cell of calibrationCells(size).filter((c) => c.kernel !== 'dense')) {
        const line = describeCell(cell);
        report.push(line);
        const timeError = cell.modelUs / cell.siliconUs - 1;
        const bound = cell.kernel === 'flashllm' ? FLASHLLM_TIME_BOUND : TIME_BOUND;
        if (Math.abs(timeError) >= bound) failures.push(`${line}: time`);
        // Flash-LLM's ratio is held by its time and winner (the target for it).
        if (cell.kernel !== 'flashllm' && Math.abs(cell.ratios!.model / cell.ratios!.silicon - 1) >= RATIO_BOUND)
          failures.push(`${line}: ratio`);
        if (cell.siliconWins !== undefined && cell.ratios!.model > 1 !== cell.siliconWins)
          failures.push(`${line}: winner differs`);
      }
      expect(failures, report.join('\n')).toEqual([]);
    }, 600_000);
  }

  // A block's start and end (gpu/probes/README.md, "Tenth batch"; computeProfiles.ts
  // `blockStartEndCycles`, `spanLaunchNs`): the STC proxy's marks put each block ≈ 1,680 cycles
  // beyond its iterations and the event time 7.36 µs beyond the blocks' span.
  it("the STC kernel alone within 10 % of the blocks' measured span on the calibration shapes (9216², 50 % was +13.8 % with every SM held to an even share of the lookups)", () => {
    for (const row of H200_STC_SPAN_ROWS.filter((r) => r.m === r.k)) {
      const timing = calibrationTiming(row.m, row.sparsity, 'stc');
      const kernelUs = (timing.timeNs - timing.stagesNs.reduction - timing.stagesNs.launch) / 1000;
      expect(Math.abs(kernelUs / row.spanUs - 1), `${row.m}² ${row.sparsity}`).toBeLessThan(0.1);
    }
  }, 120_000);
});
