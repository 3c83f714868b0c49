import { foldedSliceMasks } from '../../../gpu/memory/parityHash.ts';
import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import type { GpuMemoryProfile } from '../../../gpu/memory/profileTypes.ts';

/**
 * A named profile with only `setsPerSlice` sets in each L2 slice (same slices, ways and hash
 * shape): L2-capacity effects show up with small traces, and each simulation allocates little.
 */
export function withSmallL2(name: string, setsPerSlice = 16): GpuMemoryProfile {
  const profile = memoryProfile(name);
  const masks = foldedSliceMasks(profile.l2.sliceHash.parityMasks.length, Math.log2(setsPerSlice));
  return {
    ...profile,
    l2: {
      ...profile.l2,
      setsPerSlice,
      setIndexMasks: masks.setIndexMasks,
      sliceHash: { ...profile.l2.sliceHash, parityMasks: masks.parityMasks },
    },
  };
}
