import { UserError } from '../../api/plugin.ts';
import { encodeStc, STC_TILE_COLS } from '../golden/formats/stcFormat.ts';
import { numberToFp16 } from '../golden/numerics/fp16.ts';
import { checkSparsity } from '../golden/pruning/sparsity.ts';
import { Random } from '../golden/pruning/random.ts';
import { syntheticLlmLayer } from '../golden/pruning/synthetic.ts';
import { wandaPrune } from '../golden/pruning/prune.ts';

/** What one MMA multiplies: each thread's row tile of pruned A and the dense B chunk. */
export interface MmaOperands {
  /** Per thread: the row tile's bitmap, bit c ↔ column c of the tile (LSB first, docs/spec.md §3.2). */
  readonly bitmaps: readonly bigint[];
  /** Per thread: the tile's nonzero FP16 bit patterns in increasing column order. */
  readonly values: readonly Uint16Array[];
  /** The B elements of the tile's columns, FP16 bit patterns (tileLength of them). */
  readonly b: Uint16Array;
}

export interface PrunedOperandOptions {
  /** Fraction of weights Wanda removes, 0 ≤ s < 1 (the paper's range is 0.3 … 0.7). */
  readonly sparsity: number;
  readonly seed: number;
  /** Threads per MMA: rows of A per MMA. */
  readonly threads: number;
  /** Columns per row tile (the decoder's tileLength; a multiple of 64 or a divisor of it). */
  readonly tileLength: number;
}

/** Input channels of the synthetic layer: sixteen 64-column STC tiles per row. */
const LAYER_COLS = 1024;
/** At least this many rows, so a stream visits more than one row block. */
const MIN_LAYER_ROWS = 64;

/** One row of STC tiles joined into a row-long bitmap and value list. */
interface PrunedRow {
  readonly bitmap: bigint;
  readonly values: Uint16Array;
}

function joinRowTiles(tiles: readonly { readonly bitmap: bigint; readonly values: Uint16Array }[]): PrunedRow {
  let bitmap = 0n;
  const values: number[] = [];
  tiles.forEach((tile, j) => {
    bitmap |= tile.bitmap << BigInt(j * STC_TILE_COLS);
    values.push(...tile.values);
  });
  return { bitmap, values: Uint16Array.from(values) };
}

function popcount(value: bigint): number {
  let count = 0;
  for (let rest = value; rest !== 0n; rest &= rest - 1n) count++;
  return count;
}

/** The window of a pruned row from column `from`, `length` columns wide. */
function rowWindow(row: PrunedRow, from: number, length: number): { bitmap: bigint; values: Uint16Array } {
  const mask = (1n << BigInt(length)) - 1n;
  const bitmap = (row.bitmap >> BigInt(from)) & mask;
  const skipped = popcount(row.bitmap & ((1n << BigInt(from)) - 1n));
  return { bitmap, values: row.values.slice(skipped, skipped + popcount(bitmap)) };
}

/**
 * An endless stream of MMA operands taken from a real pruning: a synthetic LLM layer
 * (syntheticLlmLayer: heavy-tailed weights, outlier input channels) pruned by Wanda to the
 * sparsity, encoded as STC row tiles (encodeStc), and walked as a GEMV kernel walks it: for each
 * block of `threads` rows, every K tile in increasing k, then the next row block. B is a fresh
 * random FP16 activation chunk (standard normal) per MMA.
 */
export function* prunedMmaStream(options: PrunedOperandOptions): Generator<MmaOperands, never> {
  const { sparsity, seed, threads, tileLength } = options;
  checkSparsity(sparsity);
  if (LAYER_COLS % tileLength !== 0)
    throw new UserError(`a sparse workload needs a tile length dividing ${LAYER_COLS}, not ${tileLength}`);
  const rows = Math.ceil(Math.max(threads, MIN_LAYER_ROWS) / threads) * threads;
  const layer = syntheticLlmLayer(rows, LAYER_COLS, seed);
  const stc = encodeStc(wandaPrune(layer.weights, layer.activationNorms, sparsity));
  const prunedRows = Array.from({ length: rows }, (_, m) =>
    joinRowTiles(stc.tiles.slice(m * stc.tilesPerRow, (m + 1) * stc.tilesPerRow)),
  );
  const activations = new Random(seed ^ 0x5bd1e995);
  const tilesPerRow = LAYER_COLS / tileLength;
  for (let mma = 0; ; mma++) {
    const rowBlock = Math.floor(mma / tilesPerRow) % (rows / threads);
    const from = (mma % tilesPerRow) * tileLength;
    const windows = Array.from({ length: threads }, (_, thread) =>
      rowWindow(prunedRows[rowBlock * threads + thread]!, from, tileLength),
    );
    yield {
      bitmaps: windows.map((window) => window.bitmap),
      values: windows.map((window) => window.values),
      b: Uint16Array.from({ length: tileLength }, () => numberToFp16(activations.nextGaussian())),
    };
  }
}
