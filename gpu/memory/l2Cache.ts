import { compileParityHash, type AddressHash } from './parityHash.ts';
import type { L2Spec, SliceHashSpec } from './profileTypes.ts';
import { mulberry32 } from './seededRandom.ts';
import { log2Exact, SectoredLookup } from './sectoredCache.ts';

/**
 * Compiles the slice selector and the in-slice set index of `SliceHashSpec`: both are parities of
 * q = floor(address / (granuleBytes · modulus)), the granule's number within its residue class.
 */
export function compileSliceHash(
  spec: SliceHashSpec,
  setIndexMasks: readonly number[],
): { sliceOf: AddressHash; setOf: AddressHash } {
  const parities = compileParityHash(spec.parityMasks);
  const setHash = compileParityHash(setIndexMasks);
  const { granuleBytes, modulus } = spec;
  return {
    sliceOf: (address: number): number => {
      const granule = Math.floor(address / granuleBytes);
      const residue = granule % modulus;
      return residue + modulus * parities((granule - residue) / modulus);
    },
    setOf: (address: number): number => {
      const granule = Math.floor(address / granuleBytes);
      return setHash((granule - (granule % modulus)) / modulus);
    },
  };
}

/**
 * L2 hit latency of every (SM, slice) pair, SM cycles, SM-major: hitLatencyCycles ± the spread,
 * one fixed uniform draw per pair (memory.md §1b: on the L40 it depends on which SM asks; which
 * pairs are near is unknown, so the draw stands in for the floorplan).
 */
export function l2HitLatencyCycles(spec: L2Spec, smCount: number): Float64Array {
  const random = mulberry32(0x5eed);
  return Float64Array.from(
    { length: smCount * spec.slices },
    () => spec.hitLatencyCycles + spec.hitLatencySpreadCycles * (2 * random() - 1),
  );
}

/** The shared L2: address-hashed slices, each set-associative with a parity set index, LRU, 32-byte sectors. */
export class L2Cache extends SectoredLookup {
  readonly sliceOf: AddressHash;

  constructor(readonly spec: L2Spec) {
    const { sliceHash } = spec;
    if (sliceHash.modulus * 2 ** sliceHash.parityMasks.length !== spec.slices) {
      throw new RangeError(
        `slice hash covers ${sliceHash.modulus} × 2^${sliceHash.parityMasks.length} slices, not ${spec.slices}`,
      );
    }
    if (spec.slices % spec.slicesPerChannel !== 0)
      throw new RangeError(`${spec.slices} slices do not split into groups of ${spec.slicesPerChannel}`);
    if (sliceHash.granuleBytes % spec.lineBytes !== 0) throw new RangeError('slice granule must be whole lines');
    const setBits = log2Exact(spec.setsPerSlice, 'L2 sets per slice');
    if (spec.setIndexMasks.length !== setBits)
      throw new RangeError(`L2 needs ${setBits} set-index masks, has ${spec.setIndexMasks.length}`);
    const { sliceOf, setOf } = compileSliceHash(sliceHash, spec.setIndexMasks);
    super(
      {
        instances: spec.slices,
        sets: spec.setsPerSlice,
        ways: spec.ways,
        lineBytes: spec.lineBytes,
        sectorBytes: spec.sectorBytes,
        label: 'L2',
      },
      setOf,
    );
    this.sliceOf = sliceOf;
  }

  /** The DRAM channel behind `slice`. */
  channelOf(slice: number): number {
    return Math.floor(slice / this.spec.slicesPerChannel);
  }
}
