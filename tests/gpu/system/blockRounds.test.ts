/**
 * A grid with more blocks than the SMs' residency slots (gpu/probes/README.md, "Ninth batch"): an
 * SM runs its blocks in rounds, each at the pace of the blocks it holds, while the L2 slices'
 * lookups bound the whole grid's block-iterations (timingModel.ts `smRounds`, `gridLookupCycles`).
 * Silicon: past one round the STC proxy's cycles per iteration follow the grid's block-iterations
 * (4.19 / 8.10 µs per iteration on 512 / 1,024 blocks, Nsight Compute, two runs).
 */
import { describe, expect, it } from 'vitest';
import { computeProfile } from '../../../gpu/system/computeProfiles.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import { H200_PARITY_ROWS, H200_STC_KERNEL_ROWS } from '../h200Silicon.ts';
import { MEASURED_MMA, modelH200Cell } from './support.ts';

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
  return (timing.timeNs - timing.stagesNs.reduction - computeProfile('h200').launchNs) / 1000;
}

/** Least-squares slope of µs over iterations per block (K / 8 / 64). */
function slope(points: Array<{ k: number; us: number }>): number {
  const xs = points.map((p) => p.k / 512);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = points.reduce((a, p) => a + p.us, 0) / points.length;
  const num = points.reduce((a, p, i) => a + (xs[i]! - mx) * (p.us - my), 0);
  return num / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
}

describe('blocks past one round (h200, STC proxy, N = 8, split-K 8)', () => {
  it('512 and 1,024 blocks, 50 %: the time per iteration within 5 % of silicon (each SM at its own rounds with the lookups on them: +35 / +8 %)', () => {
    for (const m of [16384, 32768]) {
      const rows = H200_STC_KERNEL_ROWS.filter((r) => r.m === m);
      const model = rows.map((r) => ({ k: r.k, us: kernelUs(m, r.k) }));
      expect(Math.abs(slope(model) / slope(rows) - 1)).toBeLessThan(0.05);
    }
  }, 120_000);

  it('14336 × 4096 (448 blocks: 52 SMs hold a fourth): the STC within 15 % of the harness at 50 and 70 % (every SM at full residency: −12 / −22 %)', () => {
    for (const sparsity of [0.5, 0.7]) {
      const row = H200_PARITY_ROWS.find((r) => r.m === 14336 && r.k === 4096 && r.sparsity === sparsity)!;
      const timing = modelH200Cell('stc', row.m, row.k, sparsity);
      expect(Math.abs(timing.timeNs / 1000 / row.stc - 1)).toBeLessThan(0.15);
    }
  }, 300_000);
});
