/**
 * The layout `InitSparseMatrixA_API_bmp_real` (github.com/dhjoo98/coruscant,
 * kernel_sources/coruscant_kernel/csrc/Coruscant_SpMM_API.cu) produces, written from its
 * description rather than from our encoder: ⌊M/64⌋ row blocks (a partial one is dropped), tiles
 * block-outer column-inner, bit 63−r for tile row r when the half is nonzero as a float (so −0 is
 * a zero), nonzeros two per uint32 low half first, each tile padded to a multiple of 8 halves,
 * offsets a prefix sum in uint32 words from 0.
 */
export function referenceLayout(rows: number, cols: number, bits: Uint16Array) {
  const bitmaps: bigint[] = [];
  const offsets = [0];
  const halves: number[] = [];
  for (let block = 0; block < Math.floor(rows / 64); block++) {
    for (let col = 0; col < cols; col++) {
      let bitmap = 0n;
      const tile: number[] = [];
      for (let r = 0; r < 64; r++) {
        const half = bits[(block * 64 + r) * cols + col]!;
        if ((half & 0x7fff) === 0) continue;
        bitmap |= 1n << BigInt(63 - r);
        tile.push(half);
      }
      while (tile.length % 8 !== 0) tile.push(0);
      halves.push(...tile);
      bitmaps.push(bitmap);
      offsets.push(offsets[offsets.length - 1]! + tile.length / 2);
    }
  }
  const bytes = (width: 2 | 4 | 8, values: readonly (number | bigint)[]): Buffer => {
    const out = Buffer.alloc(width * values.length);
    values.forEach((v, i) =>
      width === 8
        ? out.writeBigUInt64LE(v as bigint, i * 8)
        : width === 4
          ? out.writeUInt32LE(v as number, i * 4)
          : out.writeUInt16LE(v as number, i * 2),
    );
    return out;
  };
  return { bitmaps: bytes(8, bitmaps), offsets: bytes(4, offsets), values: bytes(2, halves) };
}
