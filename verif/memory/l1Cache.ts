import { compileParityHash, type AddressHash } from './parityHash.ts';
import type { L1Spec } from './profileTypes.ts';
import { log2Exact, SectoredCacheArray, type LookupOutcome } from './sectoredCache.ts';

/**
 * The per-SM L1 data caches: set-associative, 128-byte lines of 32-byte sectors, a parity-hash
 * set index (seed 001: "each index bit is the XOR of a fixed set of address bits"), LRU.
 */
export class L1Caches {
  readonly setOf: AddressHash;
  readonly store: SectoredCacheArray;
  private readonly lineBytes: number;
  private readonly sectorShift: number;
  private readonly sectorMask: number;
  /** The line and cache instance of the previous access, for the same-line fast path. */
  private lastLine = -1;
  private lastInstance = -1;

  constructor(
    readonly spec: L1Spec,
    smCount: number,
  ) {
    const setBits = log2Exact(spec.sets, 'L1 sets');
    if (spec.setIndexMasks.length !== setBits) throw new RangeError(`L1 needs ${setBits} set-index masks, has ${spec.setIndexMasks.length}`);
    this.setOf = compileParityHash(spec.setIndexMasks);
    log2Exact(spec.lineBytes, 'L1 line bytes');
    this.lineBytes = spec.lineBytes;
    this.sectorShift = log2Exact(spec.sectorBytes, 'L1 sector bytes');
    this.sectorMask = spec.lineBytes / spec.sectorBytes - 1;
    this.store = new SectoredCacheArray(smCount, spec.sets, spec.ways, spec.lineBytes / spec.sectorBytes);
  }

  /** Sector index of `address` inside its line. */
  sectorOf(address: number): number {
    return (address >>> this.sectorShift) & this.sectorMask;
  }

  /** Looks up the sector holding `address` in SM `sm`'s L1 (allocates on a miss; `store.slot` names the way). */
  access(sm: number, address: number): LookupOutcome {
    const line = Math.floor(address / this.lineBytes);
    const sector = this.sectorOf(address);
    // Consecutive sectors of one line (a request's 2nd…4th) skip the hash and the tag scan.
    if (line === this.lastLine && sm === this.lastInstance) return this.store.accessSlot(this.store.slot, sector);
    this.lastLine = line;
    this.lastInstance = sm;
    return this.store.access(sm, this.setOf(address), line, sector);
  }
}
