import type { TraceBuilder } from './requestTrace.ts';

/** The granule a warp's global load is split into before it reaches the L1 tag stage. */
export const SECTOR_BYTES = 32;

/** The access sizes of a global load instruction, in bytes. */
const ACCESS_SIZES = new Set([1, 2, 4, 8, 16]);

/**
 * The GPU's coalescing rule for one warp-wide global load: every active thread reads
 * `accessBytes` (1, 2, 4, 8 or 16, naturally aligned) at its address, and the warp request is the
 * set of distinct 32-byte sectors those bytes touch (memory.md §0: "the cache will only fetch the
 * unique 32 byte sectors"). Returns the sector base addresses in ascending order.
 * `activeMask` bit t enables thread t (all 32 by default).
 */
export function coalesceWarpAccess(
  addresses: ArrayLike<number>,
  accessBytes: number,
  activeMask = 0xffffffff,
): number[] {
  if (!ACCESS_SIZES.has(accessBytes)) throw new RangeError(`access size ${accessBytes} is not 1, 2, 4, 8 or 16 bytes`);
  // The timing model coalesces millions of warp loads per cell: no Set and no comparator sort per
  // load. A warp's sectors nearly always come in ascending order, so they are sorted only if not.
  const sectors: number[] = [];
  let ascending = true;
  for (let t = 0; t < addresses.length && t < 32; t++) {
    if (((activeMask >>> t) & 1) === 0) continue;
    const address = addresses[t]!;
    // Addresses pass 2³¹, so they are doubles, and `%` on a double is a library call; flooring a
    // division by a power of two is exact and is not (the model's harness cells spent a fifth of
    // their time here with `%`, a fourteenth without).
    if (Math.floor(address / accessBytes) * accessBytes !== address)
      throw new RangeError(`thread ${t}: address ${address} is not aligned to ${accessBytes} bytes`);
    // An aligned access of at most 16 bytes never straddles a 32-byte sector.
    const sector = Math.floor(address / SECTOR_BYTES) * SECTOR_BYTES;
    const last = sectors.length === 0 ? undefined : sectors[sectors.length - 1]!;
    if (last === sector) continue;
    if (last !== undefined && sector < last) ascending = false;
    sectors.push(sector);
  }
  if (ascending) return sectors;
  sectors.sort((a, b) => a - b);
  let kept = 0;
  for (const sector of sectors) if (kept === 0 || sectors[kept - 1] !== sector) sectors[kept++] = sector;
  sectors.length = kept;
  return sectors;
}

/**
 * Coalesces one warp load and appends its sector requests to `trace`, merging sectors of the
 * same 128-byte line that are adjacent into one entry (as the L1 tag stage sees one line per tag).
 * Returns the number of sectors requested.
 */
export function pushWarpAccess(
  trace: TraceBuilder,
  sm: number,
  time: number,
  addresses: ArrayLike<number>,
  accessBytes: number,
  activeMask = 0xffffffff,
): number {
  const sectors = coalesceWarpAccess(addresses, accessBytes, activeMask);
  let i = 0;
  while (i < sectors.length) {
    const start = sectors[i]!;
    const line = Math.floor(start / 128);
    let end = start + SECTOR_BYTES;
    i++;
    while (i < sectors.length && sectors[i] === end && Math.floor(end / 128) === line) {
      end += SECTOR_BYTES;
      i++;
    }
    trace.push(sm, start, end - start, time);
  }
  return sectors.length;
}
