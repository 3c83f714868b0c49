/**
 * The dense baseline on the `h200` profile is cuBLAS as Nsight Compute measured it
 * (computeProfiles.ts `denseLibrary`): a fixed share of the DRAM's peak whatever the shape, plus
 * its own split-K reduction kernel. nvjet's grid is not the model's dense kernel's (96–128 CTAs of
 * 384 threads against 128–896 blocks), so the model's memory path, whose efficiency on its own
 * kernel spreads 72–90 % of the peak over these shapes, is not what paces it: the measured rate is.
 */
import { describe, expect, it } from 'vitest';
import { computeProfile } from '../../../gpu/system/computeProfiles.ts';
import type { KernelTiming } from '../../../gpu/system/timingModel.ts';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { H200_CUBLAS_NCU_ROWS, H200_PARITY_ROWS } from '../h200Silicon.ts';
import { modelH200Cell } from './support.ts';

const library = computeProfile('h200').denseLibrary!;
const peakGBps = memoryProfile('h200').dram.bandwidthGBps;

/** The dense baseline as the sweep samples it; the sparsity only draws the unused layout. */
const denseTiming = (m: number, k: number): KernelTiming => modelH200Cell('dense', m, k, 0.5);

describe('h200 dense baseline: cuBLAS at its measured DRAM rate and reduction kernel', () => {
  it("the five shapes Nsight Compute profiled: the memory time within 5 % of nvjet's and at its share of the DRAM's peak (9216² read 72 % and 14336 × 4096 74 % while the path's makespan could set it)", () => {
    const lowest = Math.min(...H200_CUBLAS_NCU_ROWS.map((row) => row.dramPercent));
    const highest = Math.max(...H200_CUBLAS_NCU_ROWS.map((row) => row.dramPercent));
    const report: string[] = [];
    const failures: string[] = [];
    for (const row of H200_CUBLAS_NCU_ROWS) {
      const timing = denseTiming(row.m, row.k);
      const memoryUs = timing.stagesNs.memory / 1000;
      const percent = (100 * timing.bytes.dramRead) / timing.stagesNs.memory / peakGBps;
      const error = memoryUs / row.nvjetUs - 1;
      const name = `${row.m} × ${row.k}`;
      report.push(
        `${name}: ${memoryUs.toFixed(2)} µs against nvjet's ${row.nvjetUs.toFixed(2)} (${(100 * error).toFixed(1)} %), ` +
          `${percent.toFixed(1)} % of the peak against ${row.dramPercent.toFixed(1)}`,
      );
      if (Math.abs(error) >= 0.05) failures.push(`${name}: time ${(100 * error).toFixed(1)} %`);
      if (percent < lowest - 1 || percent > highest + 1) failures.push(`${name}: ${percent.toFixed(1)} % of the peak`);
    }
    expect(failures, report.join('\n')).toEqual([]);
  }, 300_000);

  it('4096 × 14336: within 15 % of the harness, the reduction kernel where it splits K', () => {
    const row = H200_PARITY_ROWS.find((r) => r.m === 4096 && r.k === 14336 && r.sparsity === 0.5)!;
    const timing = denseTiming(row.m, row.k);
    expect(timing.splitK).toBeGreaterThan(1);
    expect(timing.stagesNs.reduction).toBe(library.splitKReductionNs);
    expect(timing.bound).toBe('DRAM');
    expect(Math.abs(timing.timeNs / 1000 / row.cublas - 1)).toBeLessThan(0.15);
  }, 300_000);
});
