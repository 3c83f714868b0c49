import type { L2Spec } from './profileTypes.ts';

/**
 * Which DRAM channels a channel-sampled run of the path model simulates (docs/system-model.md,
 * Sampling). A sampled run keeps every request homed on the chosen channels — at its full-run
 * time, through its real L2 slice, near copy, bank and bus — and drops the others, so each
 * simulated slice, bank and channel bus sees exactly the request stream it sees in the full run.
 *
 * Channels are chosen by their position within their L2 partition (a chosen position takes that
 * channel in every partition, with the near copies that share its slices' sets) and stratified by
 * type: the residue, modulo the slice hash's modulus, of the first slice behind the channel. A
 * strided pattern loads the types differently (7168² dense on h200: 112 lines per row of A, so
 * each K tile's lines fall on one residue, and the type holding residues 2 and 0 finishes 2 µs
 * after the others); every type contributes the same share of its positions, at least one,
 * spread evenly over them.
 */
export interface ChannelSample {
  /** Per L2 slice: 1 when its requests are simulated. */
  readonly slices: Uint8Array;
  /** Per DRAM channel: 1 when simulated. */
  readonly channels: Uint8Array;
  /** Simulated slices / all slices (= simulated channels / all channels). */
  readonly fraction: number;
}

/** About 1 in `every` channels of an L2 of `l2` (all when `every` ≤ 1). */
export function channelSampleOf(l2: L2Spec, every: number): ChannelSample {
  const partitions = l2.partitions?.count ?? 1;
  const perPartition = l2.slices / partitions;
  const positions = Math.ceil(perPartition / l2.slicesPerChannel);
  const modulus = l2.sliceHash.modulus;
  const byType = new Map<number, number[]>();
  for (let position = 0; position < positions; position++) {
    const type = (position * l2.slicesPerChannel) % modulus;
    byType.set(type, [...(byType.get(type) ?? []), position]);
  }
  const chosen = new Set<number>();
  for (const group of byType.values()) {
    const picks = every <= 1 ? group.length : Math.max(1, Math.round(group.length / every));
    for (let i = 0; i < picks; i++) chosen.add(group[Math.floor(((i + 0.5) * group.length) / picks)]!);
  }
  const slices = new Uint8Array(l2.slices);
  const channels = new Uint8Array(l2.slices / l2.slicesPerChannel);
  let count = 0;
  for (let slice = 0; slice < l2.slices; slice++) {
    if (!chosen.has(Math.floor((slice % perPartition) / l2.slicesPerChannel))) continue;
    slices[slice] = 1;
    channels[Math.floor(slice / l2.slicesPerChannel)] = 1;
    count++;
  }
  return { slices, channels, fraction: count / l2.slices };
}
