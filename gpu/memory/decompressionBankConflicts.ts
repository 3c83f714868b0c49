import { mulberry32 } from './seededRandom.ts';
import { sharedMemoryWavefronts } from './sharedMemoryBanks.ts';

/**
 * Bank conflicts of the Coruscant kernel's decompression step (paper §3.2, Fig. 9): each of a
 * warp's 32 threads holds two 64-element tiles (bitmap + nonzeros) in registers and scatters its
 * nonzeros into the warp's 64×64 FP16 tile of shared memory, stored row-major with 64 halves
 * (128 bytes = all 32 banks) per row, as in the reference kernel's `output_idx = … + (pos << 6)`.
 * Step j of tile i is one 2-byte store instruction by every thread with more than j nonzeros in
 * that tile (the unrolled loop with `break`); the function counts its wavefronts.
 */

/** How a thread's two 64-element tiles sit in the 64×64 warp tile (paper Fig. 9 a–c). */
export type DecompressionTiling = 'row' | 'rectangular' | 'column';

interface TilingShape {
  /** Rows × columns of one 64-element tile. */
  readonly tileRows: number;
  readonly tileCols: number;
  /** Whether a thread's second tile sits beside the first (true) or below it (false). */
  readonly tilesSideBySide: boolean;
}

/**
 * Row-wise: a thread owns rows (1×64 tiles, one below the other); rectangular: two 8×8 squares
 * side by side; column-wise (Coruscant): two adjacent 64×1 columns, so a thread's halves always
 * share one 4-byte word column and hence one bank.
 */
const TILING_SHAPES: Readonly<Record<DecompressionTiling, TilingShape>> = {
  row: { tileRows: 1, tileCols: 64, tilesSideBySide: false },
  rectangular: { tileRows: 8, tileCols: 8, tilesSideBySide: true },
  column: { tileRows: 64, tileCols: 1, tilesSideBySide: true },
};

const WARP_TILE = 64;
const HALF_BYTES = 2;
const THREADS = 32;

/** Counts over the whole decompression of one warp tile. */
export interface DecompressionConflicts {
  readonly tiling: DecompressionTiling;
  /** Store instructions the warp issues (steps with at least one active thread). */
  readonly storeInstructions: number;
  /** Shared-memory wavefronts those stores take. */
  readonly wavefronts: number;
  /** Wavefronts beyond one per store: the serialization bank conflicts cost. */
  readonly conflictWavefronts: number;
  /** The worst single store's wavefronts. */
  readonly worstStoreWavefronts: number;
}

/**
 * Runs the decompression of one warp tile and counts its wavefronts. `bitmaps[2·t + i]` is tile i
 * of thread t, MSB first: bit 63 − e set when element e (in the tile's row-major order) is nonzero.
 */
export function decompressionBankConflicts(
  tiling: DecompressionTiling,
  bitmaps: readonly bigint[],
): DecompressionConflicts {
  if (bitmaps.length !== 2 * THREADS)
    throw new RangeError(`need ${2 * THREADS} tile bitmaps (two per thread), got ${bitmaps.length}`);
  const shape = TILING_SHAPES[tiling];
  const positions = bitmaps.map((bitmap, index) =>
    nonzeroByteAddresses(shape, Math.floor(index / 2), index % 2, bitmap),
  );
  let storeInstructions = 0;
  let wavefronts = 0;
  let worst = 0;
  for (let tile = 0; tile < 2; tile++) {
    for (let step = 0; step < 64; step++) {
      const addresses = new Array<number>(THREADS).fill(0);
      let active = 0;
      for (let t = 0; t < THREADS; t++) {
        const address = positions[2 * t + tile]![step];
        if (address === undefined) continue;
        addresses[t] = address;
        active |= 1 << t;
      }
      if (active === 0) continue;
      const count = sharedMemoryWavefronts(addresses, active);
      storeInstructions++;
      wavefronts += count;
      worst = Math.max(worst, count);
    }
  }
  return {
    tiling,
    storeInstructions,
    wavefronts,
    conflictWavefronts: wavefronts - storeInstructions,
    worstStoreWavefronts: worst,
  };
}

/** Shared-memory byte addresses of the nonzeros of thread `thread`'s tile `tile`, in decode order. */
function nonzeroByteAddresses(shape: TilingShape, thread: number, tile: number, bitmap: bigint): number[] {
  const regionCols = shape.tilesSideBySide ? 2 * shape.tileCols : shape.tileCols;
  const regionRows = shape.tilesSideBySide ? shape.tileRows : 2 * shape.tileRows;
  const regionsPerRow = WARP_TILE / regionCols;
  const firstRow =
    Math.floor(thread / regionsPerRow) * regionRows + (shape.tilesSideBySide ? 0 : tile * shape.tileRows);
  const firstCol = (thread % regionsPerRow) * regionCols + (shape.tilesSideBySide ? tile * shape.tileCols : 0);
  const addresses: number[] = [];
  for (let element = 0; element < 64; element++) {
    if (((bitmap >> BigInt(63 - element)) & 1n) === 0n) continue;
    const row = firstRow + Math.floor(element / shape.tileCols);
    const col = firstCol + (element % shape.tileCols);
    addresses.push((row * WARP_TILE + col) * HALF_BYTES);
  }
  return addresses;
}

/** 64 tile bitmaps (two per thread) with each element nonzero with probability 1 − sparsity. */
export function randomTileBitmaps(sparsity: number, seed: number): bigint[] {
  const random = mulberry32(seed);
  return Array.from({ length: 2 * THREADS }, () => {
    let bitmap = 0n;
    for (let element = 0; element < 64; element++) bitmap = (bitmap << 1n) | (random() >= sparsity ? 1n : 0n);
    return bitmap;
  });
}
