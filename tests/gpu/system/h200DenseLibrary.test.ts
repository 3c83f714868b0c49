/**
 * The dense baseline on the `h200` profile is cuBLAS as Nsight Compute measured it
 * (computeProfiles.ts `denseLibrary`): a fixed share of the DRAM's peak whatever the shape, plus
 * its own split-K reduction kernel. The shape checked is the large-K near-parity shape,
 * 4096 × 14336, where the path model's streamer alone read ≈ 4.0 TB/s and came out 26 % fast.
 */
import { describe, expect, it } from 'vitest';
import { computeProfile } from '../../../gpu/system/computeProfiles.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { H200_PARITY_ROWS } from '../h200Silicon.ts';
import { MEASURED_MMA } from './support.ts';

describe('h200 dense baseline: cuBLAS at its measured DRAM rate and reduction kernel', () => {
  it('4096 × 14336: within 15 % of the harness, never faster than the measured rate, the reduction kernel where it splits K', () => {
    const row = H200_PARITY_ROWS.find((r) => r.m === 4096 && r.k === 14336 && r.sparsity === 0.5)!;
    const layout = randomLayouts(row.m, row.k, [0.5], 1)[0]!;
    const timing = modelKernel({
      profile: 'h200',
      kernel: 'dense',
      shape: { m: row.m, k: row.k, n: 8 },
      layout,
      mma: MEASURED_MMA,
      sample: sampleFactor('dense', layout, 8, 300_000),
    });
    const library = computeProfile('h200').denseLibrary!;
    const peakGBps = memoryProfile('h200').dram.bandwidthGBps;
    expect(timing.stagesNs.memory).toBeGreaterThanOrEqual(timing.bytes.dramRead / (library.dramEfficiency * peakGBps));
    expect(timing.splitK).toBeGreaterThan(1);
    expect(timing.stagesNs.reduction).toBe(library.splitKReductionNs);
    expect(timing.bound).toBe('DRAM');
    expect(Math.abs(timing.timeNs / 1000 / row.cublas - 1)).toBeLessThan(0.15);
  }, 300_000);
});
