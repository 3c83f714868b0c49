/**
 * The storage shared by the L1s and the L2 slices: `instances` independent caches (one per SM,
 * or one per slice) of `sets × ways` lines, each line a tag plus a valid bit per sector, LRU.
 * A lookup that finds the tag but not the sector is a sector miss: only that sector is fetched
 * (memory.md §0), and the line keeps its other sectors.
 */

/** The sector was present. */
export const HIT = 0;
/** The line's tag was present but not this sector: fetch 32 bytes, keep the line. */
export const SECTOR_MISS = 1;
/** The line was absent: evict the LRU way, allocate, fetch this sector only. */
export const LINE_MISS = 2;

/** One outcome of `SectoredCacheArray.access`. */
export type LookupOutcome = typeof HIT | typeof SECTOR_MISS | typeof LINE_MISS;

export class SectoredCacheArray {
  /** Line number (address / line bytes) held by each way; −1 when empty. */
  private readonly tags: Float64Array;
  /** LRU stamp of each way (0 = never used, so empty ways are evicted first). */
  private readonly lastUse: Float64Array;
  /** Bit s set when sector s of the way's line is present. */
  private readonly valid: Uint8Array;
  /** Time (ns) each sector's data is (or will be) in the cache; pending fills make later hits wait. */
  private readonly readyNs: Float64Array;
  private stamp = 0;
  /** The way slot that the last access hit or filled (an index for readyAt/setReady). */
  slot = 0;

  constructor(
    readonly instances: number,
    readonly sets: number,
    readonly ways: number,
    readonly sectorsPerLine: number,
  ) {
    if (sectorsPerLine > 8) throw new RangeError('at most 8 sectors per line (one valid byte)');
    const lines = instances * sets * ways;
    this.tags = new Float64Array(lines).fill(-1);
    this.lastUse = new Float64Array(lines);
    this.valid = new Uint8Array(lines);
    this.readyNs = new Float64Array(lines * sectorsPerLine);
  }

  /** Looks up `sector` of `line` in one set, updating LRU and allocating on a miss. */
  access(instance: number, set: number, line: number, sector: number): LookupOutcome {
    const tags = this.tags;
    const lastUse = this.lastUse;
    const base = (instance * this.sets + set) * this.ways;
    const end = base + this.ways;
    const stamp = ++this.stamp;
    const bit = 1 << sector;
    let victim = base;
    let oldest = Infinity;
    for (let way = base; way < end; way++) {
      if (tags[way] === line) {
        lastUse[way] = stamp;
        this.slot = way;
        if ((this.valid[way]! & bit) !== 0) return HIT;
        this.valid[way]! |= bit;
        return SECTOR_MISS;
      }
      const use = lastUse[way]!;
      if (use < oldest) {
        oldest = use;
        victim = way;
      }
    }
    tags[victim] = line;
    this.valid[victim] = bit;
    lastUse[victim] = stamp;
    this.slot = victim;
    return LINE_MISS;
  }

  /** When sector `sector` of the way `slot` holds its data, ns. */
  readyAt(slot: number, sector: number): number {
    return this.readyNs[slot * this.sectorsPerLine + sector]!;
  }

  /** Records when a fill of sector `sector` of way `slot` arrives, ns. */
  setReady(slot: number, sector: number, timeNs: number): void {
    this.readyNs[slot * this.sectorsPerLine + sector] = timeNs;
  }
}

/** log2 of a power of two; a RangeError naming `what` otherwise. */
export function log2Exact(value: number, what: string): number {
  const bits = Math.log2(value);
  if (!Number.isInteger(bits)) throw new RangeError(`${what} must be a power of two, not ${value}`);
  return bits;
}
