import type { L2Spec } from './profileTypes.ts';

/**
 * The share of a buffer's lines that the L2 still holds when the buffer is read again after a
 * cyclic walk over `walkBytes` (the buffer and whatever was read between), every SM reading its own
 * disjoint part of it and those parts spread evenly over the SMs of each partition.
 *
 * With a split L2 each partition's sets hold the lines homed in it (1 / p of the walk) and copies
 * of the far-homed lines its own SMs read ((p − 1) / p of their 1 / p), so a partition needs
 * (2p − 1) / p² of the walk; of that, its sets keep the shares whose measured footprint it does not
 * exceed (`setShares`: the sets that overflow before others; beyond its limit a share thrashes under
 * LRU and keeps nothing of a cyclic walk). Without partitions the whole L2 keeps all or nothing.
 */
export function cyclicKeptShare(l2: L2Spec, walkBytes: number): number {
  const capacity = l2.slices * l2.setsPerSlice * l2.ways * l2.lineBytes;
  const partitions = l2.partitions;
  if (!partitions) return walkBytes <= capacity ? 1 : 0;
  const p = partitions.count;
  const perPartitionMiB = (walkBytes * (2 * p - 1)) / p / p / 2 ** 20;
  const shares = partitions.setShares ?? [{ share: 1, keptMiB: capacity / p / 2 ** 20 }];
  // Whole or nothing exactly at the ends (the shares' sum carries rounding).
  const limits = shares.map(({ keptMiB }) => keptMiB);
  if (perPartitionMiB <= Math.min(...limits)) return 1;
  if (perPartitionMiB > Math.max(...limits)) return 0;
  return shares.reduce((kept, { share, keptMiB }) => kept + (perPartitionMiB <= keptMiB ? share : 0), 0);
}
