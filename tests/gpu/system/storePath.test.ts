/**
 * The SM's rate for Flash-LLM's scattered 16-bit shared stores by blocks per SM
 * (gpu/probes/stsScatter.cu, `stsScatter 50 <blocks> scan 16 4000`, H200 runs of 2026-12-02):
 * the model (storePath.ts) within 10 % of each row.
 */
import { describe, expect, it } from 'vitest';
import { scatteredStoreCyclesPerStore } from '../../../gpu/system/storePath.ts';
import { UserError } from '../../../common/errors.ts';

/** Blocks per SM, warp 0's staged vectors per rep, warp stores per rep per SM, silicon cycles per store (results/2026-12-02b/burst.jsonl). */
const ROWS = [
  [1, 17, 260, 6.11],
  [2, 17, 520, 3.16],
  [3, 17, 780, 3.05],
] as const;

describe('scattered-store rate by blocks per SM (h200)', () => {
  it.each(ROWS)('%i block(s) per SM: within 10 %% of silicon', (blocksPerSm, warp0Steps, storesOnSm, silicon) => {
    const model = scatteredStoreCyclesPerStore('h200', {
      blocksPerSm,
      warp0Steps,
      warpStoresPerBlock: storesOnSm / blocksPerSm,
    });
    expect(Math.abs(model / silicon - 1)).toBeLessThan(0.1);
  });

  it('one block is bound by its warps’ own chain, two and more by the SM’s store path', () => {
    const cycles = (blocksPerSm: number): number =>
      scatteredStoreCyclesPerStore('h200', { blocksPerSm, warp0Steps: 17, warpStoresPerBlock: 260 });
    expect(cycles(1)).toBeGreaterThan(1.5 * cycles(2));
    expect(cycles(2)).toBe(cycles(3));
  });

  it('a profile with no measured rate says so', () => {
    expect(() =>
      scatteredStoreCyclesPerStore('rtx6000ada', { blocksPerSm: 1, warp0Steps: 17, warpStoresPerBlock: 260 }),
    ).toThrow(UserError);
  });
});
