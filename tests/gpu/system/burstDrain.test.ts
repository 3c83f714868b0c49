/**
 * The grid's burst of tile loads on a register-staged block's chain (timingModel.ts
 * `burstDrainCycles`, h200's `burstsInLockstep`): the harness's Flash-LLM by split-K
 * (gpu/probes/results/2026-12-02b/splitk.txt) grows its iteration by the bytes every resident block
 * loads over the DRAM's peak. Small shapes: the mechanism, not the calibration (h200Spmm.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import { computeProfile } from '../../../gpu/system/computeProfiles.ts';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { MEASURED_MMA } from './support.ts';

describe('the burst drain (2048×4096, N = 8, 30 %)', () => {
  const shape = { m: 2048, k: 4096, n: 8 };
  const [layout] = randomLayouts(shape.m, shape.k, [0.3], 1);
  const run = (profile: string, kernel: SpmmKernel, splitK: number) =>
    modelKernel({ profile, kernel, shape, layout: layout!, mma: MEASURED_MMA, splitK, sample: 8 });

  it('on h200 a Flash-LLM block waits for the whole grid’s tiles at the DRAM’s peak: twice the blocks, twice the drain', () => {
    const fewer = run('h200', 'flashllm', 8);
    const more = run('h200', 'flashllm', 16);
    expect(more.blocks).toBe(2 * fewer.blocks);
    const h200 = memoryProfile('h200');
    // SM cycles at the clock the SMs run at while they issue mma.sync.
    const bytesPerCycle = (h200.dram.bandwidthGBps * 1000) / computeProfile('h200').tensorClockMHz!;
    // 30 %: ≈ 20 staged vectors of 2 KB per block-iteration, 64 blocks.
    expect(fewer.perIteration.burstDrain).toBeGreaterThan((64 * 36_000) / bytesPerCycle);
    expect(fewer.perIteration.burstDrain).toBeLessThan((64 * 44_000) / bytesPerCycle);
    expect(more.perIteration.burstDrain / fewer.perIteration.burstDrain).toBeCloseTo(2, 6);
    // The chain grows by the added drain, to within the few percent the other terms move by with the blocks.
    const growth = more.perIteration.chain - fewer.perIteration.chain;
    expect(Math.abs(growth - fewer.perIteration.burstDrain) / fewer.perIteration.burstDrain).toBeLessThan(0.05);
  }, 120_000);

  it('no drain where the blocks are not measured in lockstep (rtx6000ada) or for the pipelined dense kernel', () => {
    expect(run('rtx6000ada', 'flashllm', 16).perIteration.burstDrain).toBe(0);
    expect(run('h200', 'dense', 16).perIteration.burstDrain).toBe(0);
  }, 120_000);
});
