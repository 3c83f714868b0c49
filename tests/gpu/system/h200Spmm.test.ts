/**
 * The SpMM table of the H200 silicon measurements (docs/reference/h200-silicon.md §2: split-K 8,
 * N = 8) through the timing model on the `h200` profile: kernel / cuBLAS and STC / cuBLAS speedups
 * within 20 % and the faster of each pair the same as on silicon, in every cell. The parameters
 * are the profiles'; nothing is set per cell. Cells the model is known to miss carry the reason
 * and are held to the winner and to 50 %, so that they cannot drift unseen
 * (docs/system-model.md, calibration table).
 */
import { describe, expect, it } from 'vitest';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { H200_SPMM_ROWS } from '../h200Silicon.ts';
import { MEASURED_MMA } from './support.ts';

const KERNEL_MISS =
  "software kernel too fast at 9216² (three blocks per SM): the model's Algorithm 1 chain, the slowest warp's, is ≈ 20 % shorter per block-iteration than silicon's at both shapes, and its dense time is 5 % above the harness's cuBLAS there";
/** Cells (size, sparsity, ratio) outside 20 %, with why. */
const KNOWN_MISSES: Readonly<Record<string, string>> = {
  '9216|0.3|kernel': KERNEL_MISS,
  '9216|0.4|kernel': KERNEL_MISS,
  '9216|0.5|kernel': KERNEL_MISS,
  '9216|0.6|kernel': KERNEL_MISS,
  '9216|0.7|kernel': KERNEL_MISS,
};

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
    sample: sampleFactor(kernel, layout, 8, 300_000, 132),
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
    it(`${size}×${size}: speedups over cuBLAS within 20 % (known misses within 50 %), the right winner in every cell`, () => {
      const dense = timeOf(size, 0, 'dense', 0);
      const report: string[] = [];
      const failures: string[] = [];
      for (const [index, sparsity] of SPARSITIES.entries()) {
        const row = H200_SPMM_ROWS.find((r) => r.size === size && r.sparsity === sparsity)!;
        for (const [name, kernel, silicon] of [
          ['kernel', 'coruscant', row.cublas / row.coruscant],
          ['stc', 'stc', row.cublas / row.stc],
        ] as const) {
          const model = dense / timeOf(size, sparsity, kernel, index);
          const error = model / silicon - 1;
          const miss = KNOWN_MISSES[`${size}|${sparsity}|${name}`];
          report.push(
            `${sparsity} ${name}: model ${model.toFixed(2)}× silicon ${silicon.toFixed(2)}× (${(100 * error).toFixed(0)} %)`,
          );
          if (Math.abs(error) >= (miss === undefined ? 0.2 : 0.5))
            failures.push(`${sparsity} ${name}: ${(100 * error).toFixed(0)} %`);
          if (model > 1 !== silicon > 1) failures.push(`${sparsity} ${name}: winner differs`);
        }
      }
      expect(failures, report.join('\n')).toEqual([]);
    }, 600_000);
  }
});
