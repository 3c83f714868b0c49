/**
 * Golden checks of the clock-crossing library, from what a testbench saw (no shared code with
 * the hardware): an asynchronous FIFO delivers every accepted word once, in order, and never
 * holds more than its depth.
 */

/** What went into and came out of a FIFO, in order. */
export interface FifoTraffic {
  readonly accepted: readonly bigint[];
  readonly delivered: readonly bigint[];
}

/**
 * The first way `delivered` is not a prefix of `accepted` (a word lost, duplicated or out of
 * order), or more words in flight than `depth` at the end; undefined when the traffic is that of
 * a FIFO (call it after every step to check the occupancy all along).
 */
export function checkFifoTraffic(traffic: FifoTraffic, depth: number): string | undefined {
  const { accepted, delivered } = traffic;
  if (delivered.length > accepted.length)
    return `delivered ${delivered.length} words but only ${accepted.length} were accepted`;
  for (let index = 0; index < delivered.length; index++)
    if (delivered[index] !== accepted[index])
      return `word ${index}: delivered 0x${delivered[index]!.toString(16)}, accepted 0x${accepted[index]!.toString(16)}`;
  if (accepted.length - delivered.length > depth)
    return `${accepted.length - delivered.length} words in flight in a FIFO of depth ${depth}`;
  return undefined;
}
