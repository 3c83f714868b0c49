import type { PartitionSetShare } from './profileTypes.ts';
import { SectoredCacheArray, type LookupOutcome } from './sectoredCache.ts';

/** Ways of a partition's set: a share's limit lands within 1/80 of where the table puts it. */
const WAYS = 80;
/** Residues of the line number that split the lines among the shares (shares in steps of 0.5 %). */
const RESIDUES = 200;

/**
 * The split L2's storage (GH100): each partition's sets hold the lines homed in its slices and
 * copies of the other partition's lines that its SMs read, under one LRU per set, so a partition
 * whose SMs read more than it holds loses its own lines to DRAM as well as its copies
 * (gpu/probes/README.md, "Eleventh batch": one partition's SMs reading 40 MiB get half the lines
 * from DRAM, the half homed in their partition).
 *
 * The sets do not all keep the same part of a buffer. With equal sets a cyclic walk would stay
 * in them up to their size and thrash all at once beyond it. The H200 does not:
 * `gpu/probes/l2Replacement.cu` finds the same lines leaving in every pass, whatever the walk's
 * order, a quarter of them from 28 MiB on and the rest in steps up to 35 MiB — sets that overflow
 * before others. `PartitionSetShare` gives each share of the lines the part of a buffer its sets
 * keep; asked to keep more, they thrash under LRU, as those lines do on silicon. Which lines fall
 * in which share and set is a stand-in (GH100's hash is not published) that spreads a contiguous
 * buffer evenly within each share, so each share overflows at its measured footprint and not
 * before. A line has the same share and set in every partition.
 */
export class PartitionSets {
  /** Per share: its sets (instance = partition). */
  private readonly stores: SectoredCacheArray[];
  /** Per residue of the line number: its share, its rank among the share's residues. */
  private readonly shareOf: Int32Array;
  private readonly rankOf: Int32Array;
  private readonly residuesOf: Int32Array;
  private readonly sectorMask: number;
  private readonly sectorShift: number;
  /** The store and line of the previous access, for the same-line fast path of a request's sectors. */
  private last: SectoredCacheArray;
  private lastLine = -1;
  private lastPartition = -1;

  constructor(
    partitions: number,
    shares: readonly PartitionSetShare[],
    private readonly lineBytes: number,
    sectorBytes: number,
  ) {
    const total = shares.reduce((sum, share) => sum + share.share, 0);
    if (Math.abs(total - 1) > 1e-9) throw new RangeError(`partition set shares add up to ${total}, not 1`);
    this.sectorShift = Math.log2(sectorBytes);
    this.sectorMask = lineBytes / sectorBytes - 1;
    this.shareOf = new Int32Array(RESIDUES);
    this.rankOf = new Int32Array(RESIDUES);
    this.residuesOf = new Int32Array(shares.length);
    let cumulative = 0;
    let residue = 0;
    this.stores = shares.map((share, index) => {
      cumulative += share.share;
      const end = index === shares.length - 1 ? RESIDUES : Math.round(cumulative * RESIDUES);
      for (; residue < end; residue++) {
        this.shareOf[residue] = index;
        this.rankOf[residue] = this.residuesOf[index]!++;
      }
      const sets = Math.max(1, Math.round((share.share * share.keptMiB * 2 ** 20) / lineBytes / WAYS));
      return new SectoredCacheArray(partitions, sets, WAYS, lineBytes / sectorBytes);
    });
    this.last = this.stores[0]!;
  }

  /** Looks up the sector holding `address` in `partition`'s sets (allocates on a miss). */
  access(partition: number, address: number): LookupOutcome {
    const line = Math.floor(address / this.lineBytes);
    const sector = (address >>> this.sectorShift) & this.sectorMask;
    if (line === this.lastLine && partition === this.lastPartition) return this.last.accessSlot(this.last.slot, sector);
    this.lastLine = line;
    this.lastPartition = partition;
    const residue = line % RESIDUES;
    const share = this.shareOf[residue]!;
    const store = this.stores[share]!;
    this.last = store;
    // The share's lines counted in address order, dealt round the share's sets.
    const rank = Math.floor(line / RESIDUES) * this.residuesOf[share]! + this.rankOf[residue]!;
    return store.access(partition, rank % store.sets, line, sector);
  }

  /**
   * The way slot of the last access. A line's partitions share one store, so after looking the
   * line up in a second partition the first one's slot is still this number.
   */
  get slot(): number {
    return this.last.slot;
  }

  /** When `sector` of the last access's line holds its data in way `slot` (default: the last access's), ns. */
  readyAt(sector: number, slot = this.last.slot): number {
    return this.last.readyAt(slot, sector);
  }

  /** Records when the fill of `sector` of the last access's line arrives in way `slot` (default: the last access's), ns. */
  setReady(sector: number, timeNs: number, slot = this.last.slot): void {
    this.last.setReady(slot, sector, timeNs);
  }
}
