/**
 * Flash-LLM's register staging as the harness's sm_90 binary has it (gpu/system/kernels.ts
 * FLASHLLM_STAGING; docs/system-model.md, "Flash-LLM on H200"): tile 2 staged for 8 steps only,
 * tile 1's steps from 8 on serialized behind every earlier load, the extract a chain of one group
 * per staged vector (the trace's staged bytes: traces.test.ts). Random cases replay with FC_SEED=<seed> npx vitest run tests/gpu/system/flashLlmStaging.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FLASHLLM_EXTRACT_CYCLES_PER_VECTOR,
  flashLlmStaging,
  iterationCosts,
} from '../../../gpu/system/kernelCosts.ts';
import { flashLlmSerialLoads, flashLlmStagedVectors, flashLlmSteps } from '../../../gpu/system/kernels.ts';
import { randomLayout } from '../../../gpu/system/sparseLayout.ts';
import { fastCheckSeed } from '../../support/seed.ts';

describe("Flash-LLM's staging registers", () => {
  it('the compiled loop: 16 steps of tile 1, 8 of tile 2 (24 LDG.128 and 96 STS.U16 per thread at most)', () => {
    expect(flashLlmStagedVectors(2048, 0)).toBe(2048);
    expect(flashLlmStagedVectors(2048, 1)).toBe(1024);
    expect(flashLlmSteps(2048, 0) + flashLlmSteps(2048, 1)).toBe(24);
    expect(flashLlmStagedVectors(700, 1)).toBe(700);
  });

  it("tile 1's steps 8 … 15 wait for every earlier load: none up to 1024 vectors, one per step beyond", () => {
    expect(flashLlmSerialLoads(1024)).toBe(0);
    expect(flashLlmSerialLoads(1025)).toBe(1);
    expect(flashLlmSerialLoads(1434)).toBe(4); // 30 % of a 128×64 tile: 5 734 items
    expect(flashLlmSerialLoads(2048)).toBe(8);
  });

  it('staged vectors never exceed the tile and serial loads follow the steps (random tiles)', () => {
    const seed = fastCheckSeed('flashLlmStaging');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2048 }), fc.integer({ min: 0, max: 2048 }), (first, second) => {
        expect(flashLlmStagedVectors(first, 0)).toBe(first);
        expect(flashLlmStagedVectors(second, 1)).toBe(Math.min(second, 1024));
        expect(flashLlmSerialLoads(first)).toBe(Math.max(0, flashLlmSteps(first, 0) - 8));
      }),
      { seed, numRuns: 200 },
    );
  });

  it('at 30 % the block waits for 1 + ≈ 4 round trips and extracts ≈ 20 vectors per warp; at 70 % one round trip', () => {
    const dense = randomLayout(512, 512, 0.3, 7);
    const sparse = randomLayout(512, 512, 0.7, 7);
    const at30 = iterationCosts('flashllm', dense, 8);
    const at70 = iterationCosts('flashllm', sparse, 8);
    expect(at30.dependentLoadRounds).toBeGreaterThan(4.5);
    expect(at30.dependentLoadRounds).toBeLessThan(5.1);
    expect(at70.dependentLoadRounds).toBe(1);
    const staging = flashLlmStaging(dense);
    expect(staging.warpSteps).toBeGreaterThanOrEqual(19);
    expect(staging.warpSteps).toBeLessThanOrEqual(21);
    expect(at30.decompressChainCycles).toBeCloseTo(staging.warpSteps * FLASHLLM_EXTRACT_CYCLES_PER_VECTOR, 6);
  });
});
