import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import type { MmaCycles } from '../../../gpu/system/tensorCoreCycles.ts';
import { modelKernel, type KernelTiming } from '../../../gpu/system/timingModel.ts';

/** MmaUnit's cycle counts as measured in tensorCoreCycles.test.ts, so model tests need not re-run the RTL. */
export const MEASURED_MMA: MmaCycles = {
  periodCycles: 16,
  latencyCycles: 1,
  documentedLatencyCycles: 1,
  pipelined: 0,
  source: 'tests (see tensorCoreCycles.test.ts)',
};

/**
 * One H200 cell as the silicon harness ran it (N = 8; the paper's kernels at split-K 8, the dense
 * kernel at its own), sampled as the sweep samples it.
 */
export function modelH200Cell(kernel: SpmmKernel, m: number, k: number, sparsity: number): KernelTiming {
  const layout = randomLayouts(m, k, [sparsity], 1)[0]!;
  return modelKernel({
    profile: 'h200',
    kernel,
    shape: { m, k, n: 8 },
    layout,
    mma: MEASURED_MMA,
    ...(kernel === 'dense' ? {} : { splitK: 8 }),
    sample: sampleFactor(kernel, layout, 8, 300_000),
  });
}
