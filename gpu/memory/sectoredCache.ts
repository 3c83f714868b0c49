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
  /**
   * Per set, three runs of `ways` numbers side by side (so one set is one contiguous block of
   * memory, which matters for traces far larger than the host's caches): the line number held
   * by each way (−1 when empty), its LRU stamp (0 = never used, so empty ways go first), and its
   * sector valid mask (bit s = sector s present).
   */
  private readonly lines: Float64Array;
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
    const slots = instances * sets * ways;
    this.lines = new Float64Array(3 * slots);
    for (let set = 0; set < instances * sets; set++) this.lines.fill(-1, 3 * ways * set, 3 * ways * set + ways);
    this.readyNs = new Float64Array(slots * sectorsPerLine);
  }

  /** Looks up `sector` of `line` in one set, updating LRU and allocating on a miss. */
  access(instance: number, set: number, line: number, sector: number): LookupOutcome {
    const lines = this.lines;
    const ways = this.ways;
    const setIndex = instance * this.sets + set;
    const base = 3 * ways * setIndex;
    const stamp = ++this.stamp;
    const bit = 1 << sector;
    let victim = 0;
    let oldest = Infinity;
    for (let way = 0; way < ways; way++) {
      if (lines[base + way] === line) {
        lines[base + ways + way] = stamp;
        this.slot = setIndex * ways + way;
        const valid = lines[base + 2 * ways + way]!;
        if ((valid & bit) !== 0) return HIT;
        lines[base + 2 * ways + way] = valid | bit;
        return SECTOR_MISS;
      }
      const use = lines[base + ways + way]!;
      if (use < oldest) {
        oldest = use;
        victim = way;
      }
    }
    lines[base + victim] = line;
    lines[base + ways + victim] = stamp;
    lines[base + 2 * ways + victim] = bit;
    this.slot = setIndex * ways + victim;
    return LINE_MISS;
  }

  /**
   * Looks up `sector` of the line in way `slot`, known to hold it (the caller just accessed that
   * line and nothing else since): the fast path for the sectors of one request after its first.
   */
  accessSlot(slot: number, sector: number): LookupOutcome {
    const ways = this.ways;
    const way = slot % ways;
    const validIndex = 3 * ways * ((slot - way) / ways) + 2 * ways + way;
    const valid = this.lines[validIndex]!;
    const bit = 1 << sector;
    if ((valid & bit) !== 0) return HIT;
    this.lines[validIndex] = valid | bit;
    return SECTOR_MISS;
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

/**
 * Sector lookups over several cache instances (L1s per SM, L2 slices) sharing one line/sector
 * geometry and a set-index hash, with a same-line fast path for a request's consecutive sectors.
 */
export class SectoredLookup {
  readonly store: SectoredCacheArray;
  private readonly sectorShift: number;
  private readonly sectorMask: number;
  /** The line and cache instance of the previous access, for the same-line fast path. */
  private lastLine = -1;
  private lastInstance = -1;

  constructor(
    private readonly geometry: {
      readonly instances: number;
      readonly sets: number;
      readonly ways: number;
      readonly lineBytes: number;
      readonly sectorBytes: number;
      readonly label: string;
    },
    readonly setOf: (address: number) => number,
  ) {
    log2Exact(geometry.lineBytes, `${geometry.label} line bytes`);
    this.sectorShift = log2Exact(geometry.sectorBytes, `${geometry.label} sector bytes`);
    this.sectorMask = geometry.lineBytes / geometry.sectorBytes - 1;
    this.store = new SectoredCacheArray(
      geometry.instances,
      geometry.sets,
      geometry.ways,
      geometry.lineBytes / geometry.sectorBytes,
    );
  }

  /** Sector index of `address` inside its line. */
  sectorOf(address: number): number {
    return (address >>> this.sectorShift) & this.sectorMask;
  }

  /** Looks up the sector holding `address` in cache `instance` (allocates on a miss; `store.slot` names the way). */
  access(instance: number, address: number): LookupOutcome {
    const line = Math.floor(address / this.geometry.lineBytes);
    const sector = this.sectorOf(address);
    // Consecutive sectors of one line (a request's 2nd…4th) skip the hash and the tag scan.
    if (line === this.lastLine && instance === this.lastInstance) return this.store.accessSlot(this.store.slot, sector);
    this.lastLine = line;
    this.lastInstance = instance;
    return this.store.access(instance, this.setOf(address), line, sector);
  }
}
