/** The DRAM channels a channel-sampled run of the path model simulates. */
import { describe, expect, it } from 'vitest';
import { channelSampleOf } from '../../../gpu/memory/channelSample.ts';
import { GPU_MEMORY_PROFILES, memoryProfile } from '../../../gpu/memory/profiles.ts';

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
