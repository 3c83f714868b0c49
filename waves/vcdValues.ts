/**
 * Values in a read trace are strings: for bit signals exactly `width` characters of `0 1 x z`,
 * most significant first (so x/z survive and any width works); for real signals the number's text
 * as the file wrote it. These helpers convert them.
 */

/** The numeric value of a fully known bit string, or undefined if it holds x or z. */
export function bitsToBigInt(bits: string): bigint | undefined {
  if (!/^[01]+$/.test(bits)) return undefined;
  return BigInt(`0b${bits}`);
}

/** `width` bits of `value`, most significant first. */
export function bigIntToBits(value: bigint, width: number): string {
  return value.toString(2).padStart(width, '0').slice(-width);
}

/**
 * Left-extends a VCD vector value to `width` as IEEE 1364 §18.2.3.8 says: with 0 when its first
 * bit is 0 or 1, else with that x or z.
 */
export function extendBits(bits: string, width: number): string {
  if (bits.length >= width) return bits;
  const first = bits[0];
  const fill = first === 'x' || first === 'z' ? first : '0';
  return fill.repeat(width - bits.length) + bits;
}

/** All-unknown value of a signal before its first change. */
export function unknownBits(width: number): string {
  return 'x'.repeat(width);
}

/** Hexadecimal text of a known bit string (no prefix), or 'x' / 'z' when it is all z or has any unknown bit. */
export function bitsToHex(bits: string): string {
  const value = bitsToBigInt(bits);
  if (value !== undefined) return value.toString(16);
  return /^z+$/.test(bits) ? 'z' : 'x';
}
