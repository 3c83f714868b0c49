import { FieldError, UserError } from '../../common/errors.ts';

/**
 * The four SpMM kernels the system model compares (docs/spec.md §7) and the tiling they share. All four
 * use the reference Coruscant kernel's thread-block tile (docs/reference/facts.md §1a: TILE_M 256,
 * TILE_K 64, 4 warps of 32 threads, warp w owning rows 64w … 64w+63 of the block) and the same
 * split-K, so differences come from what each kernel loads and does per tile, not from tuning.
 */
export const SPMM_KERNELS = ['dense', 'flashllm', 'coruscant', 'stc'] as const;
export type SpmmKernel = (typeof SPMM_KERNELS)[number];

/** What each kernel is, in one line (CLI help, reports). */
export const KERNEL_TITLES: Readonly<Record<SpmmKernel, string>> = {
  dense: 'dense (cuBLAS-like: A row-major FP16, LDG.128 → shared memory, HMMA)',
  flashllm: 'Flash-LLM (Tiled-CSL items → registers → extract to shared memory, HMMA)',
  coruscant: 'Coruscant software kernel (bitmap format → registers → Algorithm 1 to shared memory, HMMA)',
  stc: 'Coruscant STC (bitmap format → registers → m32n1k64 MMA straight from registers)',
};

export const TILE_M = 256;
export const TILE_K = 64;
export const WARPS_PER_BLOCK = 4;
export const THREADS_PER_WARP = 32;
/** Rows of A one warp owns: one 64-row block of the bitmap format. */
export const WARP_ROWS = TILE_M / WARPS_PER_BLOCK;

/** One SpMM problem: A is M×K (weights), B is K×N (activations). */
export interface SpmmShape {
  readonly m: number;
  readonly k: number;
  readonly n: number;
}

/** Rejects shapes the shared tiling cannot cover without partial tiles. */
export function checkShape(shape: SpmmShape): void {
  const { m, k, n } = shape;
  if (!(Number.isSafeInteger(m) && m > 0 && m % TILE_M === 0))
    throw new UserError(`M = ${m}: the kernels' thread-block tile needs M a positive multiple of ${TILE_M}`);
  if (!(Number.isSafeInteger(k) && k > 0 && k % TILE_K === 0))
    throw new UserError(`K = ${k}: the kernels' K tile needs K a positive multiple of ${TILE_K}`);
  if (!(Number.isSafeInteger(n) && n > 0 && n <= 4096)) throw new UserError(`N = ${n}: give a whole number 1 … 4096`);
}

/** Parses "MxK" (also "M×K"). */
export function parseShape(text: string): { m: number; k: number } {
  const match = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/i.exec(text);
  if (!match) throw new FieldError('shape', `${text}: give M×K as e.g. 9216x9216`);
  return { m: Number(match[1]), k: Number(match[2]) };
}

/**
 * How thread blocks map to the problem: block b covers rows 256·(b mod rowBlocks) … and K tiles
 * split·itersPerSplit …, so consecutive blocks (on consecutive SMs) read the same B tile.
 */
export interface GridPlan {
  readonly rowBlocks: number;
  readonly kTiles: number;
  readonly splitK: number;
  /** K tiles per split (the last split may get fewer). */
  readonly itersPerSplit: number;
  readonly blocks: number;
}

/** The grid for a given split-K. */
export function gridPlan(shape: SpmmShape, splitK: number): GridPlan {
  const rowBlocks = shape.m / TILE_M;
  const kTiles = shape.k / TILE_K;
  if (!(Number.isSafeInteger(splitK) && splitK >= 1 && splitK <= kTiles))
    throw new FieldError('splitK', `${splitK}: give 1 … ${kTiles} (the K tiles of ${shape.k})`);
  const itersPerSplit = Math.ceil(kTiles / splitK);
  const splits = Math.ceil(kTiles / itersPerSplit);
  return { rowBlocks, kTiles, splitK: splits, itersPerSplit, blocks: rowBlocks * splits };
}

/** Block b's row block, first K tile and number of K tiles. */
export function blockWork(plan: GridPlan, block: number): { rowBlock: number; firstKTile: number; iterations: number } {
  const rowBlock = block % plan.rowBlocks;
  const split = Math.floor(block / plan.rowBlocks);
  const firstKTile = split * plan.itersPerSplit;
  return { rowBlock, firstKTile, iterations: Math.min(plan.itersPerSplit, plan.kTiles - firstKTile) };
}

/**
 * The split-K the model picks when none is given: the one (1 … 16) that minimizes the most K-tile
 * iterations any SM runs, blocks dealt round-robin to SMs (the fewest, fullest waves; ties go to
 * the smaller split, which has less reduction traffic). The reference kernel takes split-K as a
 * command-line argument; its README uses 8 for 7168×7168.
 */
export function autoSplitK(shape: SpmmShape, smCount: number): number {
  const kTiles = shape.k / TILE_K;
  let best = 1;
  let bestCost = Infinity;
  for (let splitK = 1; splitK <= Math.min(16, kTiles); splitK++) {
    const plan = gridPlan(shape, splitK);
    const cost = Math.ceil(plan.blocks / smCount) * plan.itersPerSplit;
    if (cost < bestCost) {
      bestCost = cost;
      best = plan.splitK;
    }
  }
  return best;
}

/**
 * Flash-LLM's register staging as the silicon harness builds it for N ≤ 32
 * (dhjoo98/coruscant kernel_sources/flash_llm: `SparseKernelConfig<64>`, TILE_M 256, 128 threads):
 * one `uint32_t Registers_GlobalToShared[64]` per thread, thread t holding vectors t, t + 128, …
 * (step i = vector div 128) of each of the block's two 128×64 tiles, 4 items per vector. Tile 1
 * is staged from slot 0, tile 2 from slot 32 (`Registers_GlobalToShared + NUM_REG / 2`), and both
 * unrolled loops run i = 0 … 15, so tile 2's steps 8 … 15 index slots 64 … 95, past the array:
 * the compiler drops those loads and stores as out-of-bounds (the sm_90 PTX of the loop has 24
 * LDG.128 and 96 STS.U16 per thread, 16 + 8 steps), and tile 1's steps 8 … 15 reuse tile 2's
 * slots 32 … 63. A load into a register another in-flight load also writes must wait for it: the
 * sm_90 SASS makes each of tile 1's loads from step 8 on wait on the scoreboard all the
 * iteration's loads share, i.e. for every load before it to return (docs/system-model.md,
 * "Flash-LLM on H200"; ptxas 13.0: 155 registers, 0 bytes stack, no spills, so no local memory).
 */
export const FLASHLLM_STAGING = {
  registers: 64,
  secondTileSlot: 32,
  threads: TILE_M / 2,
  vectorItems: 4,
  steps: 16,
} as const;

/** Vectors of a tile of `vectors` the compiled kernel loads: all of tile 1; of tile 2, the first 8 steps' (slots 32 … 63). */
export function flashLlmStagedVectors(vectors: number, tile: 0 | 1): number {
  const { registers, secondTileSlot, threads, vectorItems, steps } = FLASHLLM_STAGING;
  const stepsInBounds = tile === 0 ? steps : (registers - secondTileSlot) / vectorItems;
  return Math.min(vectors, stepsInBounds * threads);
}

/**
 * Tile-1 loads that wait for every earlier load of the iteration (steps 8 … 15, whose registers
 * tile 2's steps 0 … 7 also load), as warp 0 of the block issues them: its lane 0 has the tile's
 * most vectors, so it runs the most steps, and the barrier after the extract waits for it.
 */
export function flashLlmSerialLoads(firstTileVectors: number): number {
  const { secondTileSlot, vectorItems } = FLASHLLM_STAGING;
  const firstShared = secondTileSlot / vectorItems;
  return Math.max(0, flashLlmSteps(firstTileVectors, 0) - firstShared);
}

/** Steps of a tile of `vectors` that warp 0 (its lane 0 holds the most vectors) runs in the copy and the extract. */
export function flashLlmSteps(vectors: number, tile: 0 | 1): number {
  return Math.ceil(flashLlmStagedVectors(vectors, tile) / FLASHLLM_STAGING.threads);
}
