/**
 * A warp's turn-around depends on the level that served its step (gpu/memory/warpLoop.ts; the
 * probes' one-load-in-flight rows: ≈ 60 cycles after an L2 hit, ≈ 108 after DRAM): the same stream
 * run with the on-chip turn-around equal to the DRAM one must be slower by exactly the difference
 * per step when the L2 serves it, and no different when DRAM does.
 */
import { describe, expect, it } from 'vitest';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import { runLoop, type LoopOptions } from '../../../gpu/memory/warpLoop.ts';

const h200 = memoryProfile('h200');
const oneTurnaround = { ...h200, sm: { ...h200.sm, l2HitStepCycles: h200.sm.loadStepCycles } };
const KiB = 1024;
/** One warp per SM, one load in flight: 132 × 512 B per step, 16 steps. */
const STEPS = 16;
const TOTAL = STEPS * h200.sm.count * 512;
/** Warm: a 256 KiB footprint the L2 holds; cold: each line read once, from DRAM. */
const stream = (warm: boolean): LoopOptions => ({
  pattern: 'stream',
  bytes: warm ? 256 * KiB : TOTAL,
  totalBytes: TOTAL,
  mapping: 'rotating',
  warpsPerSm: 1,
  inFlight: 1,
  warm,
});

describe('warp turn-around by level', () => {
  it('an L2-served step turns around in l2HitStepCycles, not loadStepCycles', () => {
    const shorter = runLoop(h200, stream(true)).timeNs;
    const longer = runLoop(oneTurnaround, stream(true)).timeNs;
    const cycleNs = 1000 / h200.sm.clockMHz;
    const expected = (STEPS - 1) * ((h200.sm.loadStepCycles ?? 0) - (h200.sm.l2HitStepCycles ?? 0)) * cycleNs;
    expect(expected).toBeGreaterThan(0);
    expect(Math.abs(longer - shorter - expected)).toBeLessThan(0.1 * expected);
  });

  it('a step that read DRAM keeps loadStepCycles', () => {
    expect(runLoop(h200, stream(false)).timeNs).toBe(runLoop(oneTurnaround, stream(false)).timeNs);
  });
});
