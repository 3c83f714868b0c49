import type { GpuMemoryProfile, SmSpec } from './profileTypes.ts';

/**
 * The GPC of each SM. SMs come in TPCs of `smsPerTpc` (numbered together), and the TPCs are dealt
 * to the GPCs in turn, as the H200's thread block clusters show for its first 32 TPCs
 * (gpu/probes/README.md, "Twelfth batch"); without a GPC spec every SM is in GPC 0.
 */
export function smGpcs(sm: SmSpec): Int32Array {
  const gpcs = sm.gpcs;
  if (!gpcs) return new Int32Array(sm.count);
  if (!(Number.isSafeInteger(gpcs.smsPerTpc) && gpcs.smsPerTpc > 0 && sm.count % gpcs.smsPerTpc === 0))
    throw new RangeError(`${sm.count} SMs do not split into TPCs of ${gpcs.smsPerTpc}`);
  return Int32Array.from({ length: sm.count }, (_, id) => Math.floor(id / gpcs.smsPerTpc) % gpcs.count);
}

/**
 * The L2 partition of each SM: its GPC's, the GPCs taking the partitions in turn. A partition is
 * a set of whole GPCs, as on the H200 (every GPC's SMs in one partition), and so the first k SMs,
 * which the model gives a grid of k blocks, split evenly between the partitions as a small grid
 * does on silicon. Without partitions every SM is in partition 0.
 */
export function smPartitions(profile: GpuMemoryProfile): Int32Array {
  const partitions = profile.l2.partitions;
  const gpcs = smGpcs(profile.sm);
  if (!partitions) return gpcs.fill(0);
  const gpcCount = profile.sm.gpcs?.count;
  if (gpcCount === undefined) throw new RangeError(`${profile.name}: L2 partitions need the SMs' GPCs (sm.gpcs)`);
  if (gpcCount % partitions.count !== 0)
    throw new RangeError(`${gpcCount} GPCs do not split into ${partitions.count} L2 partitions`);
  return gpcs.map((gpc) => gpc % partitions.count);
}

/** The SMs of one L2 partition in ascending order: the model's counterpart of the set `smmap` finds. */
export function smsOfPartition(profile: GpuMemoryProfile, partition: number): number[] {
  const map = smPartitions(profile);
  return [...map.keys()].filter((sm) => map[sm] === partition);
}

/** The SMs of one GPC in ascending order: the model's counterpart of a set `gpcmap` finds. */
export function smsOfGpc(profile: GpuMemoryProfile, gpc: number): number[] {
  const map = smGpcs(profile.sm);
  return [...map.keys()].filter((sm) => map[sm] === gpc);
}
