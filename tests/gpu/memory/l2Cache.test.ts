import { describe, expect, it } from 'vitest';
import { L2Cache, l2HitLatencyCycles } from '../../../gpu/memory/l2Cache.ts';
import { simulateTrace } from '../../../gpu/memory/pathModel.ts';
import { patternTrace } from '../../../gpu/memory/patterns.ts';
import { TraceBuilder } from '../../../gpu/memory/requestTrace.ts';
import { GPU_MEMORY_PROFILES, memoryProfile } from '../../../gpu/memory/profiles.ts';
import { withSmallL2 } from './smallL2.ts';

describe('L2 slices', () => {
  for (const profile of Object.values(GPU_MEMORY_PROFILES)) {
    it(`${profile.name}: a sequential stream spreads evenly over the ${profile.l2.slices} slices and their channels`, () => {
      const l2 = new L2Cache(profile.l2);
      const slices = new Float64Array(profile.l2.slices);
      const channels = new Float64Array(profile.dram.channels);
      const lines = 100_003;
      for (let i = 0; i < lines; i++) {
        const slice = l2.sliceOf(0x7_0000_0000 + i * 128);
        slices[slice]!++;
        channels[l2.channelOf(slice)]!++;
      }
      const spread = (counts: Float64Array): number[] =>
        [Math.min(...counts), Math.max(...counts)].map((c) => c / (lines / counts.length));
      for (const ratio of [...spread(slices), ...spread(channels)]) expect(Math.abs(ratio - 1)).toBeLessThan(0.01);
    });
  }

  it('power-of-two strides (4 KiB … 1 MiB) still reach every slice', () => {
    for (const profile of Object.values(GPU_MEMORY_PROFILES)) {
      const l2 = new L2Cache(profile.l2);
      for (const stride of [4096, 65536, 2 ** 20]) {
        const slices = new Set(Array.from({ length: 16 * profile.l2.slices }, (_, k) => l2.sliceOf(k * stride)));
        expect(slices.size, `${profile.name}, stride ${stride}`).toBe(profile.l2.slices);
      }
    }
  });

  it("gives each sector of a line the line's slice", () => {
    const l2 = new L2Cache(memoryProfile('rtx4090').l2);
    for (let line = 0; line < 1000; line++) {
      const slice = l2.sliceOf(line * 128);
      for (let sector = 1; sector < 4; sector++) expect(l2.sliceOf(line * 128 + sector * 32)).toBe(slice);
    }
  });

  it('holds an L2-sized contiguous footprint: a second pass hits every sector', () => {
    // h200's slices and ways with 16 sets per slice, so the footprint (3.75 MiB) runs quickly.
    const profile = withSmallL2('h200');
    const { l2 } = profile;
    const bytes = l2.slices * l2.setsPerSlice * l2.ways * l2.lineBytes;
    const once = patternTrace({ pattern: 'stream', bytes, smCount: profile.sm.count });
    // The second pass runs on SMs shifted by one, so it misses in L1 and asks L2.
    const shifted = { ...once, sm: once.sm.map((sm) => (sm + 1) % profile.sm.count) };
    const result = simulateTrace(profile, [once, shifted]);
    expect(result.l2.sectorMisses).toBe(bytes / 32);
    expect(result.l2.sectorHits).toBe(bytes / 32);
  });

  it("rtx6000ada: L2 hit latency depends on the (SM, slice) pair, spanning the L40's 222–339 cycles", () => {
    const { l2, sm } = memoryProfile('rtx6000ada');
    const latencies = l2HitLatencyCycles(l2, sm.count);
    expect(latencies).toHaveLength(142 * 48);
    expect(Math.min(...latencies)).toBeGreaterThanOrEqual(279 - 58.5);
    expect(Math.min(...latencies)).toBeLessThan(230);
    expect(Math.max(...latencies)).toBeLessThanOrEqual(279 + 58.5);
    expect(Math.max(...latencies)).toBeGreaterThan(330);
    expect(latencies.reduce((a, b) => a + b) / latencies.length).toBeCloseTo(279, -1);
    expect(new Set(l2HitLatencyCycles(memoryProfile('rtx4090').l2, 128))).toEqual(new Set([296]));
  });

  it("rtx6000ada: an L2 hit takes its own pair's latency", () => {
    const profile = memoryProfile('rtx6000ada');
    const latencies = l2HitLatencyCycles(profile.l2, profile.sm.count);
    const slice = new L2Cache(profile.l2).sliceOf(4096);
    // The first load opens a closed bank: the walk's latency (taken on banks with other rows open) less the precharge.
    const { dram, sm } = profile;
    const coldMiss = dram.latencyCycles - (dram.prechargeNs * sm.clockMHz) / 1000;
    for (const reader of [1, 77, 141]) {
      const trace = new TraceBuilder();
      trace.push(0, 4096, 4, 0);
      trace.push(reader, 4096, 4, 10_000);
      const result = simulateTrace(profile, trace.build());
      expect(result.l2.sectorHits).toBe(1);
      expect(result.meanLatencyCycles).toBeCloseTo((coldMiss + latencies[reader * profile.l2.slices + slice]!) / 2, 6);
    }
  });
});
