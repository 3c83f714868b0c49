/**
 * The grid's blocks in time (gpu/system/blockSchedule.ts) against what the tenth batch's marks
 * showed of every block of the harness's STC proxy (gpu/probes/results/2026-12-04/blocks*).
 */
import { describe, expect, it } from 'vitest';
import { scheduleBlocks, type BlockScheduleInput } from '../../../gpu/system/blockSchedule.ts';

/** Blocks per SM, counted: SMs holding each count. */
function smsByBlocks(smOf: Int32Array): Map<number, number> {
  const perSm = new Map<number, number>();
  for (const sm of smOf) perSm.set(sm, (perSm.get(sm) ?? 0) + 1);
  const counts = new Map<number, number>();
  for (const blocks of perSm.values()) counts.set(blocks, (counts.get(blocks) ?? 0) + 1);
  return counts;
}

const grid = (blocks: number, iterations: number, over: Partial<BlockScheduleInput> = {}): BlockScheduleInput => ({
  smCount: 132,
  slotsPerSm: 3,
  iterations: Array.from({ length: blocks }, () => iterations),
  gapCycles: 1680,
  paceCycles: (onSm) => 3000 / onSm,
  lookupsPerCycle: Infinity,
  lookupsPerIteration: 1000,
  ...over,
});

describe('the grid in time (blockSchedule)', () => {
  it('deals the first blocks to the SMs in turn: 288 blocks land 3 on 24 SMs and 2 on 108, as on silicon at 9216²', () => {
    const counts = smsByBlocks(scheduleBlocks(grid(288, 18)).smOf);
    expect(Object.fromEntries(counts)).toEqual({ 2: 108, 3: 24 });
  });

  it("gives the late blocks to slots that free at once in a random order: some SMs take two or three, as silicon's 116 late blocks of 512 did (0 / 1 / 2 / 3 on 54 / 41 / 36 / 1 SMs)", () => {
    const counts = smsByBlocks(scheduleBlocks(grid(512, 4)).smOf);
    const late = (n: number): number => counts.get(3 + n) ?? 0;
    // In turns every one of 116 SMs would take one; thrown at random about 55 take none.
    expect(late(0)).toBeGreaterThan(40);
    expect(late(0)).toBeLessThan(70);
    expect(late(2) + late(3)).toBeGreaterThan(15);
    expect(late(1) + 2 * late(2) + 3 * late(3)).toBe(116);
  });

  it('runs each SM at the pace of the blocks it holds, each block after its start and end', () => {
    const schedule = scheduleBlocks(grid(132 + 1, 10));
    // SM 0 holds two blocks (pace 1,500 per block-iteration: 3,000 per iteration of each), the others one.
    expect(schedule.smFinish[0]).toBeCloseTo(1680 + 10 * 3000, 6);
    expect(schedule.smFinish[1]).toBeCloseTo(1680 + 10 * 3000, 6);
    const starts = schedule.iterationStarts[0]!;
    const ends = schedule.iterationEnds[0]!;
    expect(starts[0]).toBeCloseTo(1680, 6);
    for (let k = 1; k < 10; k++) expect(starts[k]).toBeCloseTo(ends[k - 1]!, 6);
    expect(ends[9]).toBeCloseTo(schedule.smFinish[0]!, 6);
  });

  it('shares the lookups among the SMs asking, none beyond its pace: an SM with a block more runs on alone at its own', () => {
    // Two SMs, one with two blocks, one with one; the lookups allow one block-iteration per 1,200
    // cycles in all, while the two-block SM alone could do one per 1,500 and the other one per 3,000.
    const schedule = scheduleBlocks(
      grid(3, 10, { smCount: 2, slotsPerSm: 2, gapCycles: 0, lookupsPerCycle: 1, lookupsPerIteration: 1200 }),
    );
    // Together: the one-block SM keeps its pace (1 / 3,000) and leaves the other 1 / 1,200 − 1 / 3,000 = 1 / 2,000.
    // It ends its 10 at 30,000; by then the other has done 15 of its 20 and does the rest at its own 1 / 1,500.
    expect(schedule.smFinish[1]).toBeCloseTo(30_000, 3);
    expect(schedule.smFinish[0]).toBeCloseTo(37_500, 3);
    expect(schedule.makespan).toBeCloseTo(37_500, 3);
    // Held to an even share throughout (the model before), the two-block SM would end at 20 × 2,400 = 48,000.
  });
});
