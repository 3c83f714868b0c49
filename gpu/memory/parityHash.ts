/**
 * Parity (XOR-fold) hashes over byte addresses of up to 53 bits: output bit i is the parity of
 * `address & masks[i]`. The seed study found both the L1 set index and the L2 slice/set
 * functions to be of this form (seed 001); the masks are profile data.
 */

const TWO_POW_32 = 2 ** 32;

/** The parity hash as a fast function of a byte address (an integer below 2^53). */
export type AddressHash = (address: number) => number;

/** Parity (0 or 1) of a 32-bit value. */
export function parity32(value: number): number {
  let x = value ^ (value >>> 16);
  x ^= x >>> 8;
  x ^= x >>> 4;
  x ^= x >>> 2;
  x ^= x >>> 1;
  return x & 1;
}

/** Splits a non-negative integer below 2^53 into its low and high 32-bit words. */
export function splitAddress(address: number): { lo: number; hi: number } {
  return { lo: address >>> 0, hi: Math.floor(address / TWO_POW_32) >>> 0 };
}

/**
 * Compiles parity masks (each a non-negative integer below 2^53) into a hash function. A parity
 * hash is linear over GF(2), so hash(a) is the XOR of the hashes of a's bytes: seven 256-entry
 * tables make it cost the same for any number of masks.
 */
export function compileParityHash(masks: readonly number[]): AddressHash {
  const slowHash = (address: number): number => {
    const { lo: aLo, hi: aHi } = splitAddress(address);
    let out = 0;
    masks.forEach((mask, i) => {
      const { lo, hi } = splitAddress(mask);
      out |= parity32((aLo & lo) ^ (aHi & hi)) << i;
    });
    return out;
  };
  const tables = Array.from({ length: 7 }, (_, byte) =>
    Int32Array.from({ length: 256 }, (_, value) => slowHash(value * 2 ** (8 * byte))),
  );
  const [t0, t1, t2, t3, t4, t5, t6] = tables as [
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
  ];
  return (address: number): number => {
    const lo = address >>> 0;
    const hi = (address / TWO_POW_32) >>> 0;
    return (
      t0[lo & 255]! ^
      t1[(lo >>> 8) & 255]! ^
      t2[(lo >>> 16) & 255]! ^
      t3[lo >>> 24]! ^
      t4[hi & 255]! ^
      t5[(hi >>> 8) & 255]! ^
      t6[(hi >>> 16) & 255]!
    );
  };
}

/**
 * Masks of a classic XOR-fold index: output bit i is the XOR of address bits
 * `lowBit + i + k·bits` for every k with that bit below `addressBits`. It spreads both
 * sequential and power-of-two strides, and stands in where the real masks are unknown.
 */
export function xorFoldMasks(bits: number, lowBit: number, addressBits = 48): number[] {
  const masks: number[] = [];
  for (let i = 0; i < bits; i++) {
    let mask = 0;
    for (let bit = lowBit + i; bit < addressBits; bit += bits) mask += 2 ** bit;
    masks.push(mask);
  }
  return masks;
}

/**
 * Parity masks for a slice selector and set index that together are a bijection of q's low
 * `parityBits + setBits` bits: the set index is q's bits from `parityBits` up (higher ones
 * XOR-folded in), and parity bit i XORs every q bit ≡ i (mod parityBits), so the set bits fix
 * the rest and the map is triangular. Every aligned run of modulus · 2^(parityBits + setBits)
 * granules then fills each set of each slice exactly once (an L2-sized footprint fits), while
 * power-of-two strides still reach every slice because all of q's bits feed the parities.
 */
export function foldedSliceMasks(
  parityBits: number,
  setBits: number,
  qBits = 44,
): { parityMasks: number[]; setIndexMasks: number[] } {
  const parityMasks = Array.from({ length: parityBits }, (_, i) => {
    let mask = 0;
    for (let bit = i; bit < qBits; bit += parityBits) mask += 2 ** bit;
    return mask;
  });
  return { parityMasks, setIndexMasks: xorFoldMasks(setBits, parityBits, qBits) };
}
