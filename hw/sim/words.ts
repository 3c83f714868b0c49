/**
 * How the simulator holds values: every net as little-endian 32-bit words in an Int32Array, each
 * word the int32 bit pattern of its 32 bits, bits above the net's width always zero. Plain int32
 * arithmetic then stays in V8's fast integer paths; BigInt appears only at the API boundary.
 */

export const WORD_BITS = 32;

/** Words a value of `width` bits occupies. */
export const wordsOf = (width: number): number => Math.max(1, Math.ceil(width / WORD_BITS));

/** Bits used in the top word of a `width`-bit value (1–32). */
export const topBits = (width: number): number => width - WORD_BITS * (wordsOf(width) - 1);

/** Splits an unsigned value into `count` int32 words into `target` from `offset`. */
export function storeWords(target: Int32Array, offset: number, count: number, value: bigint): void {
  for (let index = 0; index < count; index++)
    target[offset + index] = Number(BigInt.asIntN(WORD_BITS, value >> BigInt(WORD_BITS * index)));
}

/** The unsigned value of `count` int32 words of `source` from `offset`. */
export function loadWords(source: Int32Array, offset: number, count: number): bigint {
  let value = 0n;
  for (let index = count - 1; index >= 0; index--) value = (value << 32n) | BigInt(source[offset + index]! >>> 0);
  return value;
}
