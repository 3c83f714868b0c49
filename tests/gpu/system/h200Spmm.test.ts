/**
 * The SpMM table of the H200 silicon measurements (docs/reference/h200-silicon.md §2: split-K 8,
 * N = 8) through the timing model on the `h200` profile: kernel / cuBLAS and STC / cuBLAS speedups
 * within 15 % (issue #32's bound for the paper's kernels; the dense baseline is cuBLAS at its measured
 * DRAM rate and reduction kernel, computeProfiles.ts `denseLibrary`) and the faster of each pair the same as on silicon, in every cell, and the kernels'
 * own times within what the model achieves (software kernel 10 %, STC proxy 15 %; the harness's
 * times carry its launch overhead, which the profile's launchNs models). The parameters are the
 * profiles'; nothing is set per cell, and no cell of the paper's kernels is excused (docs/system-model.md,
 * calibration). Flash-LLM's cells are checked beside them: within 15 %, its two winner misses near
 * parity listed with their reason (FLASHLLM_WINNER_MISSES).
 */
import { describe, expect, it } from 'vitest';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { H200_SPMM_ROWS } from '../h200Silicon.ts';
import { MEASURED_MMA } from './support.ts';

/** Bounds on |model / silicon − 1|: the speedup ratios (the target) and each kernel's own time (what is achieved). */
const RATIO_BOUND = 0.15;
const TIME_BOUND: Readonly<Record<'kernel' | 'stc', number>> = { kernel: 0.1, stc: 0.15 };

/**
 * Flash-LLM (h200-silicon.md §2 measures it beside the paper's kernels): its time within 15 % and
 * Flash-LLM / cuBLAS with silicon's winner in every cell but these two near parity, where the
 * model's Flash-LLM, 7–14 % fast, edges past cuBLAS.
 */
const FLASHLLM_TIME_BOUND = 0.15;
const FLASHLLM_WINNER_MISSES: ReadonlyMap<string, string> = new Map(
  ['7168 0.7', '9216 0.6'].map((cell) => [
    cell,
    "near parity (silicon 0.95× at 7168² 70 %, 0.84× at 9216² 60 %) the model's Flash-LLM, 7 % and 14 % fast, is 1.11× and 1.03× " +
      'cuBLAS: the grid\'s burst and the extract chain are measured and modelled (docs/system-model.md, "Flash-LLM by blocks per SM"); ' +
      'what is left grows with the blocks per SM (−7 … −8 % at 7168², −14 % at 9216² 50–70 %)',
  ]),
);

const timeOf = (size: number, sparsity: number, kernel: SpmmKernel, layoutIndex: number): number => {
  const layout = layoutsOf(size)[layoutIndex]!;
  const shape = { m: size, k: size, n: 8 };
  return modelKernel({
    profile: 'h200',
    kernel,
    shape,
    layout,
    mma: MEASURED_MMA,
    // cuBLAS picks its own split; the paper's kernels ran at split-K 8.
    ...(kernel === 'dense' ? {} : { splitK: 8 }),
    // Every kernel sampled as the sweep samples it. The dense baseline's sampled channels finish
    // 5–9 % apart on h200, so its sample is rerun on all channels (timingModel.ts).
    sample: sampleFactor(kernel, layout, 8, 300_000),
  }).timeNs;
};

const SPARSITIES = [0.3, 0.4, 0.5, 0.6, 0.7];
const layoutCache = new Map<number, ReturnType<typeof randomLayouts>>();
function layoutsOf(size: number): ReturnType<typeof randomLayouts> {
  if (!layoutCache.has(size)) layoutCache.set(size, randomLayouts(size, size, SPARSITIES, 1));
  return layoutCache.get(size)!;
}

describe('h200 SpMM against silicon (split-K 8, N = 8)', () => {
  for (const size of [7168, 9216]) {
    it(`${size}×${size}: speedups over cuBLAS within 15 %, the right winner and the kernels' times in every cell; Flash-LLM's winner where the model has it`, () => {
      const dense = timeOf(size, 0, 'dense', 0);
      const report: string[] = [];
      const failures: string[] = [];
      for (const [index, sparsity] of SPARSITIES.entries()) {
        const row = H200_SPMM_ROWS.find((r) => r.size === size && r.sparsity === sparsity)!;
        for (const [name, kernel, siliconUs] of [
          ['kernel', 'coruscant', row.coruscant],
          ['stc', 'stc', row.stc],
        ] as const) {
          const time = timeOf(size, sparsity, kernel, index);
          const model = dense / time;
          const silicon = row.cublas / siliconUs;
          const error = model / silicon - 1;
          const timeError = time / 1000 / siliconUs - 1;
          report.push(
            `${sparsity} ${name}: model ${model.toFixed(2)}× silicon ${silicon.toFixed(2)}× (${(100 * error).toFixed(0)} %), ` +
              `${(time / 1000).toFixed(1)} µs against ${siliconUs} (${(100 * timeError).toFixed(0)} %)`,
          );
          if (Math.abs(error) >= RATIO_BOUND) failures.push(`${sparsity} ${name}: ratio ${(100 * error).toFixed(0)} %`);
          if (Math.abs(timeError) >= TIME_BOUND[name])
            failures.push(`${sparsity} ${name}: time ${(100 * timeError).toFixed(0)} %`);
          if (model > 1 !== silicon > 1) failures.push(`${sparsity} ${name}: winner differs`);
        }
        const flashllm = timeOf(size, sparsity, 'flashllm', index);
        const model = dense / flashllm;
        const silicon = row.cublas / row.flashllm;
        const timeError = flashllm / 1000 / row.flashllm - 1;
        const miss = FLASHLLM_WINNER_MISSES.get(`${size} ${sparsity}`);
        report.push(
          `${sparsity} flashllm: model ${model.toFixed(2)}× silicon ${silicon.toFixed(2)}×, ` +
            `${(flashllm / 1000).toFixed(1)} µs against ${row.flashllm} (${(100 * timeError).toFixed(0)} %)${miss ? ' (winner not required)' : ''}`,
        );
        if (Math.abs(timeError) >= FLASHLLM_TIME_BOUND)
          failures.push(`${sparsity} flashllm: time ${(100 * timeError).toFixed(0)} %`);
        if (miss === undefined && model > 1 !== silicon > 1) failures.push(`${sparsity} flashllm: winner differs`);
      }
      expect(failures, report.join('\n')).toEqual([]);
    }, 600_000);
  }
});
