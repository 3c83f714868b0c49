/**
 * A block's start and end (gpu/probes/README.md, "Tenth batch"): the STC proxy with marks showed
 * each block spending ≈ 1,680 cycles beyond its iterations (its first tile, which nothing of its
 * own overlaps, and its stores), once per round since a round's blocks start and end together
 * (computeProfiles.ts `blockStartEndCycles`, timingModel.ts). Without it the model put the STC
 * below cuBLAS at 14336 × 4096, 50 % (1.01×) where silicon has it above (0.83×); with it the
 * model had 0.98×. Since the eleventh batch's inter-partition link (1.27 TB/s each way, which
 * half of a DRAM stream's lines cross) cuBLAS's stream is 3.5 % slower in the model and the cell
 * is 1.02×: a known miss on the winner, near parity (docs/system-model.md).
 */
import { describe, expect, it } from 'vitest';
import { computeProfile } from '../../../gpu/system/computeProfiles.ts';
import { H200_PARITY_ROWS, H200_STC_SPAN_ROWS } from '../h200Silicon.ts';
import { modelH200Cell } from './support.ts';

describe("the blocks' start and end (h200, STC proxy, N = 8, split-K 8)", () => {
  it("14336 × 4096, 50 %: the STC's time within 15 %, and its ratio to cuBLAS within 25 % of silicon's 0.83× (the winner a known miss)", () => {
    const row = H200_PARITY_ROWS.find((r) => r.m === 14336 && r.k === 4096 && r.sparsity === 0.5)!;
    const stc = modelH200Cell('stc', row.m, row.k, row.sparsity).timeNs / 1000;
    const dense = modelH200Cell('dense', row.m, row.k, row.sparsity).timeNs / 1000;
    expect(row.cublas / row.stc).toBeLessThan(1);
    expect(Math.abs(dense / stc / (row.cublas / row.stc) - 1)).toBeLessThan(0.25);
    expect(Math.abs(stc / row.stc - 1)).toBeLessThan(0.15);
  }, 120_000);

  it("the kernel alone within 15 % of the blocks' measured span on the calibration shapes (one round each)", () => {
    const launchNs = computeProfile('h200').launchNs;
    for (const row of H200_STC_SPAN_ROWS.filter((r) => r.m === r.k)) {
      const timing = modelH200Cell('stc', row.m, row.k, row.sparsity);
      const kernelUs = (timing.timeNs - timing.stagesNs.reduction - launchNs) / 1000;
      expect(Math.abs(kernelUs / row.spanUs - 1), `${row.m}² ${row.sparsity}`).toBeLessThan(0.15);
    }
  }, 120_000);
});
