import { compileParityHash } from './parityHash.ts';
import type { L1Spec } from './profileTypes.ts';
import { log2Exact, SectoredLookup } from './sectoredCache.ts';

/**
 * The per-SM L1 data caches: set-associative, 128-byte lines of 32-byte sectors, a parity-hash
 * set index (seed 001: "each index bit is the XOR of a fixed set of address bits"), LRU.
 */
export class L1Caches extends SectoredLookup {
  constructor(
    readonly spec: L1Spec,
    smCount: number,
  ) {
    const setBits = log2Exact(spec.sets, 'L1 sets');
    if (spec.setIndexMasks.length !== setBits)
      throw new RangeError(`L1 needs ${setBits} set-index masks, has ${spec.setIndexMasks.length}`);
    super(
      {
        instances: smCount,
        sets: spec.sets,
        ways: spec.ways,
        lineBytes: spec.lineBytes,
        sectorBytes: spec.sectorBytes,
        label: 'L1',
      },
      compileParityHash(spec.setIndexMasks),
    );
  }
}
