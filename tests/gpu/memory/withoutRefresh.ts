import { memoryProfile } from '../../../gpu/memory/profiles.ts';
import type { GpuMemoryProfile } from '../../../gpu/memory/profileTypes.ts';

/**
 * A named profile without DRAM refresh: for checks that time a lone read or a short stream exactly
 * (the idle latency, bytes over bandwidth, channels finishing together), which refresh's windows
 * move by up to a window's length. Refresh has checks of its own (dram.test.ts).
 */
export function withoutRefresh(name: string): GpuMemoryProfile {
  const profile = memoryProfile(name);
  const { refresh: _, ...dram } = profile.dram;
  return { ...profile, dram };
}
