/**
 * A grid with more blocks than the SMs' residency slots (gpu/probes/README.md, "Tenth batch"):
 * blocks dealt in turns, later ones to the slots that free first, every SM at the pace of the
 * blocks it holds, and the L2 slices' lookups shared by the SMs asking (blockSchedule.ts).
 * Silicon: the blocks' span on the GPU's timer, at 512 and 1,024 blocks with four iterations each
 * (K 2048, every tile from the DRAM). The harness at 14336 × 4096, where the blocks past the first
 * round decide the STC proxy's winner, is held with the other shapes beside the calibration table
 * (harnessCells.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import { H200_STC_SPAN_ROWS } from '../h200Silicon.ts';
import { MEASURED_MMA } from './support.ts';

/** The model's time for the STC kernel alone (µs): less the timed launch and the reduction kernel. */
function kernelUs(m: number, k: number): number {
  const [layout] = randomLayouts(m, k, [0.5], 1);
  const timing = modelKernel({
    profile: 'h200',
    kernel: 'stc',
    shape: { m, k, n: 8 },
    layout: layout!,
    mma: MEASURED_MMA,
    splitK: 8,
    sample: 8,
  });
  return (timing.timeNs - timing.stagesNs.reduction - timing.stagesNs.launch) / 1000;
}

describe('blocks past one round (h200, STC proxy, N = 8, split-K 8)', () => {
  it("512 and 1,024 blocks, 50 %: the kernel alone within 5 % of the blocks' span (each SM at its own rounds of blocks dealt in turns, with an even share of the lookups: −19 % at 512)", () => {
    for (const m of [16384, 32768]) {
      const row = H200_STC_SPAN_ROWS.find((r) => r.m === m)!;
      expect(Math.abs(kernelUs(m, row.k) / row.spanUs - 1), `${m} rows`).toBeLessThan(0.05);
    }
  }, 120_000);
});
