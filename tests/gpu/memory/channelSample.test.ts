/** The DRAM channels a channel-sampled run of the path model simulates, and such a run. */
import { describe, expect, it } from 'vitest';
import { channelSampleOf } from '../../../gpu/memory/channelSample.ts';
import { L2Cache } from '../../../gpu/memory/l2Cache.ts';
import { MemoryPathSimulator } from '../../../gpu/memory/pathModel.ts';
import { GPU_MEMORY_PROFILES, memoryProfile } from '../../../gpu/memory/profiles.ts';
import { withoutRefresh } from './withoutRefresh.ts';
import { TraceBuilder } from '../../../gpu/memory/requestTrace.ts';

/** Per channel type ((position × slices per channel) mod the hash modulus): channels sampled. */
function perType(profile: string, every: number): Map<number, number> {
  const { l2 } = memoryProfile(profile);
  const { channels } = channelSampleOf(l2, every);
  const counts = new Map<number, number>();
  channels.forEach((sampled, channel) => {
    const type = ((channel * l2.slicesPerChannel) % (l2.slices / (l2.partitions?.count ?? 1))) % l2.sliceHash.modulus;
    if (sampled) counts.set(type, (counts.get(type) ?? 0) + 1);
  });
  return counts;
}

describe('channelSampleOf', () => {
  it.each(Object.keys(GPU_MEMORY_PROFILES))('%s: every ≤ 1 takes every slice', (profile) => {
    const { slices, channels, fraction } = channelSampleOf(memoryProfile(profile).l2, 1);
    expect(fraction).toBe(1);
    expect([...slices].every((s) => s === 1)).toBe(true);
    expect([...channels].every((c) => c === 1)).toBe(true);
  });

  it.each(Object.keys(GPU_MEMORY_PROFILES).flatMap((profile) => [2, 3, 6, 100].map((every) => ({ profile, every }))))(
    '$profile, 1 in $every: whole channels, the same count of every type, at least one, and the exact fraction',
    ({ profile, every }) => {
      const { l2, dram } = memoryProfile(profile);
      const { slices, channels, fraction } = channelSampleOf(l2, every);
      // A channel's slices are all in or all out, and the fraction is the slices' (= channels') share.
      for (let c = 0; c < dram.channels; c++)
        for (let i = 0; i < l2.slicesPerChannel; i++) expect(slices[c * l2.slicesPerChannel + i]).toBe(channels[c]);
      const count = channels.reduce((a, b) => a + b, 0);
      expect(fraction).toBe(count / dram.channels);
      const types = perType(profile, every);
      expect(types.size).toBe(l2.sliceHash.modulus / gcd(l2.sliceHash.modulus, l2.slicesPerChannel));
      expect(new Set(types.values()).size).toBe(1);
      // About 1 in `every`, never fewer than one per type and partition.
      const partitions = l2.partitions?.count ?? 1;
      expect(count).toBeGreaterThanOrEqual(types.size * partitions);
      if (every <= dram.channels / (types.size * partitions))
        expect(Math.abs(count - dram.channels / every)).toBeLessThanOrEqual(types.size * partitions);
    },
  );

  it('h200: a sampled position is taken in both L2 partitions (their near copies share its sets)', () => {
    const { l2 } = memoryProfile('h200');
    const { slices } = channelSampleOf(l2, 6);
    const half = l2.slices / 2;
    for (let s = 0; s < half; s++) expect(slices[s + half]).toBe(slices[s]);
    expect(slices.reduce((a, b) => a + b, 0)).toBe(12); // 3 types × 1 position × 2 partitions × 2 slices
  });
});

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

describe('a channel-sampled path model run', () => {
  it.each(['rtx6000ada', 'h200'])(
    '%s: simulates exactly the sectors homed on the sampled channels, each holding the L1 for 1 / fraction sectors',
    (name) => {
      // Without refresh, whose windows would keep some channels' last reads apart.
      const profile = withoutRefresh(name);
      // 8 SMs each stream 2 MiB of 128-byte lines, one line per 4 cycles.
      const trace = new TraceBuilder(1 << 16);
      for (let i = 0; i < 16_384; i++) trace.push(i % 8, 128 * i, 128, 4 * Math.floor(i / 8));
      const batch = trace.build();
      const full = new MemoryPathSimulator(profile);
      full.feed(batch);
      const sampled = new MemoryPathSimulator(profile, { channelSample: 4 });
      sampled.feed(batch);
      const { slices, fraction } = channelSampleOf(profile.l2, 4);
      const l2 = new L2Cache(profile.l2);
      let homed = 0;
      for (let i = 0; i < batch.length; i++) if (slices[l2.sliceOf(batch.address[i]!)]) homed += 4;
      const [a, b] = [full.result(), sampled.result()];
      expect(sampled.channelFraction).toBe(fraction);
      expect(b.sectorRequests).toBe(homed);
      // The slice hash spreads the lines evenly, so the sampled share of the sectors is the channels'.
      expect(homed / a.sectorRequests).toBeCloseTo(fraction, 1);
      expect(b.busy.l1.meanBusyNs / a.busy.l1.meanBusyNs).toBeCloseTo(homed / a.sectorRequests / fraction, 6);
      // A streamed footprint: the sampled channels finish together, within the full run's makespan.
      expect(sampled.channelSpread()).toBeLessThan(0.05);
      expect(b.makespanNs).toBeLessThanOrEqual(a.makespanNs * 1.02);
    },
  );
});
