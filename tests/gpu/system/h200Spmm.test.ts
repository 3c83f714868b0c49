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
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import { modelKernel, type KernelTiming } from '../../../gpu/system/timingModel.ts';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { H200_SPMM_ROWS, H200_STC_SPAN_ROWS, siliconMean, siliconWinner } from '../h200Silicon.ts';
import { MEASURED_MMA } from './support.ts';

/** Bounds on |model / silicon − 1|: the speedup ratios (the target) and each kernel's own time. */
const RATIO_BOUND = 0.15;
const TIME_BOUND: Readonly<Record<'kernel' | 'stc', number>> = { kernel: 0.15, stc: 0.15 };

/**
 * Flash-LLM (h200-silicon.md §2 measures it beside the paper's kernels): its time within 15 % and
 * Flash-LLM / cuBLAS with silicon's winner in every cell where silicon's runs agree on it. 9216² 60 %
 * was the one miss (model 1.01×, silicon 0.80–0.84×) until the blocks that burst in lockstep also
 * stored their tiles in one window (timingModel.ts, the store path).
 */
const FLASHLLM_TIME_BOUND = 0.15;

/** Each cell's timing, once per run of this file: the span check below reads cells the table check ran. */
const timings = new Map<string, KernelTiming>();
function timingOf(size: number, sparsity: number, kernel: SpmmKernel): KernelTiming {
  const key = `${size} ${sparsity} ${kernel}`;
  const known = timings.get(key);
  if (known) return known;
  const layout = layoutsOf(size)[SPARSITIES.indexOf(sparsity)];
  if (layout === undefined)
    throw new Error(`${sparsity}: not one of the table's sparsities (${SPARSITIES.join(', ')})`);
  const timing = modelKernel({
    profile: 'h200',
    kernel,
    shape: { m: size, k: size, n: 8 },
    layout,
    mma: MEASURED_MMA,
    // cuBLAS picks its own split; the paper's kernels ran at split-K 8.
    ...(kernel === 'dense' ? {} : { splitK: 8 }),
    // Every kernel sampled as the sweep samples it (the dense baseline takes only its bytes from the path).
    sample: sampleFactor(kernel, layout, 8, 300_000),
  });
  timings.set(key, timing);
  return timing;
}
const timeOf = (size: number, sparsity: number, kernel: SpmmKernel): number => timingOf(size, sparsity, kernel).timeNs;

const SPARSITIES = [0.3, 0.4, 0.5, 0.6, 0.7];
const layoutCache = new Map<number, ReturnType<typeof randomLayouts>>();
function layoutsOf(size: number): ReturnType<typeof randomLayouts> {
  if (!layoutCache.has(size)) layoutCache.set(size, randomLayouts(size, size, SPARSITIES, 1));
  return layoutCache.get(size)!;
}

describe('h200 SpMM against silicon (split-K 8, N = 8)', () => {
  it("silicon's runs disagree on the winner in four cells near parity, and only there", () => {
    const undecided = H200_SPMM_ROWS.flatMap((row) =>
      (['flashllm', 'coruscant', 'stc'] as const)
        .filter((kernel) => siliconWinner(row.size, row.sparsity, kernel) === undefined)
        .map((kernel) => `${row.size} ${row.sparsity} ${kernel}`),
    );
    expect(undecided).toEqual(['7168 0.5 stc', '7168 0.6 stc', '7168 0.7 flashllm', '9216 0.7 flashllm']);
    // The mean of the table's run (35 / 32 µs) and the repeats (36.96 / 34.37, 38.62 / 33.46, 38.57 / 32.48).
    expect(siliconMean(7168, 0.7).cublas).toBeCloseTo(37.29, 2);
    expect(siliconMean(7168, 0.7).stc).toBeCloseTo(33.08, 2);
  });

  for (const size of [7168, 9216]) {
    it(`${size}×${size}: speedups over cuBLAS within 15 %, silicon's winner where its runs agree and the kernels' times in every cell; Flash-LLM's time and winner`, () => {
      const dense = timeOf(size, SPARSITIES[0]!, 'dense');
      const report: string[] = [];
      const failures: string[] = [];
      for (const sparsity of SPARSITIES) {
        const row = siliconMean(size, sparsity);
        for (const [name, kernel, siliconUs] of [
          ['kernel', 'coruscant', row.coruscant],
          ['stc', 'stc', row.stc],
        ] as const) {
          const time = timeOf(size, sparsity, kernel);
          const model = dense / time;
          const silicon = row.cublas / siliconUs;
          const error = model / silicon - 1;
          const timeError = time / 1000 / siliconUs - 1;
          report.push(
            `${sparsity} ${name}: model ${model.toFixed(2)}× silicon ${silicon.toFixed(2)}× (${(100 * error).toFixed(0)} %), ` +
              `${(time / 1000).toFixed(1)} µs against ${siliconUs.toFixed(1)} (${(100 * timeError).toFixed(0)} %)`,
          );
          if (Math.abs(error) >= RATIO_BOUND) failures.push(`${sparsity} ${name}: ratio ${(100 * error).toFixed(0)} %`);
          if (Math.abs(timeError) >= TIME_BOUND[name])
            failures.push(`${sparsity} ${name}: time ${(100 * timeError).toFixed(0)} %`);
          const winner = siliconWinner(size, sparsity, kernel);
          if (winner !== undefined && model > 1 !== winner) failures.push(`${sparsity} ${name}: winner differs`);
        }
        const flashllm = timeOf(size, sparsity, 'flashllm');
        const model = dense / flashllm;
        const silicon = row.cublas / row.flashllm;
        const timeError = flashllm / 1000 / row.flashllm - 1;
        report.push(
          `${sparsity} flashllm: model ${model.toFixed(2)}× silicon ${silicon.toFixed(2)}×, ` +
            `${(flashllm / 1000).toFixed(1)} µs against ${row.flashllm.toFixed(1)} (${(100 * timeError).toFixed(0)} %)` +
            `${siliconWinner(size, sparsity, 'flashllm') === undefined ? " (silicon's runs disagree)" : ''}`,
        );
        if (Math.abs(timeError) >= FLASHLLM_TIME_BOUND)
          failures.push(`${sparsity} flashllm: time ${(100 * timeError).toFixed(0)} %`);
        const winner = siliconWinner(size, sparsity, 'flashllm');
        if (winner !== undefined && model > 1 !== winner) failures.push(`${sparsity} flashllm: winner differs`);
      }
      expect(failures, report.join('\n')).toEqual([]);
    }, 600_000);
  }

  // A block's start and end (gpu/probes/README.md, "Tenth batch"; computeProfiles.ts
  // `blockStartEndCycles`, `spanLaunchNs`): the STC proxy's marks put each block ≈ 1,680 cycles
  // beyond its iterations and the event time 7.36 µs beyond the blocks' span.
  it("the STC kernel alone within 10 % of the blocks' measured span on the calibration shapes (9216², 50 % was +13.8 % with every SM held to an even share of the lookups)", () => {
    for (const row of H200_STC_SPAN_ROWS.filter((r) => r.m === r.k)) {
      const timing = timingOf(row.m, row.sparsity, 'stc');
      const kernelUs = (timing.timeNs - timing.stagesNs.reduction - timing.stagesNs.launch) / 1000;
      expect(Math.abs(kernelUs / row.spanUs - 1), `${row.m}² ${row.sparsity}`).toBeLessThan(0.1);
    }
  }, 120_000);
});
