import { decompressionBankConflicts } from '../memory/decompressionBankConflicts.ts';
import { sharedMemoryWavefronts } from '../memory/sharedMemoryBanks.ts';
import {
  TILED_CSL_TILE_COLS,
  TILED_CSL_TILE_ROWS,
  TILED_CSL_VECTOR_ITEMS,
} from '../../coruscant/golden/formats/tiledCsl.ts';
import { kernelTileWords } from '../../coruscant/golden/formats/kernelFormat.ts';
import type { ComputeProfile } from './computeProfiles.ts';
import {
  flashLlmSerialLoads,
  flashLlmStagedVectors,
  flashLlmSteps,
  THREADS_PER_WARP,
  TILE_K,
  TILE_M,
  WARPS_PER_BLOCK,
  type SpmmKernel,
} from './kernels.ts';
import { firstTiledCslTileItems, layoutPatch, tileNonzeroCounts, type SparseWeightLayout } from './sparseLayout.ts';

/**
 * What one thread-block iteration (a 256×64 tile of A, the 64×N tile of B) costs each kernel on
 * the SM, besides its global loads: warp instructions (against 4 schedulers × 1 per cycle),
 * shared-memory wavefronts (with bank conflicts from the bank model), tensor-core cycles, and the
 * block's own critical path per iteration (load latency → decompression → barrier), which only
 * other resident blocks can hide. The decompression counts are instruction-level costs of the
 * paper's Algorithm 1 and of Flash-LLM's extract step; every count is a table row with its reason.
 */

/** Instructions per nonzero of Algorithm 1 (one thread, one step of the unrolled 64-step loop). */
export const ALGORITHM1_PER_NONZERO: readonly (readonly [string, number])[] = [
  ['loop guard: i < nnz compare + predicated exit (ISETP, BRA)', 2],
  ['__clzll of the 64-bit bitmap: FLO on each half, pick (ISETP, FLO, FLO, SEL)', 4],
  ['clear that bit: 64-bit shift of the MSB mask (2 SHF) and and-not (2 LOP3)', 4],
  ['shared-memory index base + (pos << 6) (LEA)', 1],
  ["the value's FP16 half from its static register (PRMT on every other nonzero)", 0.5],
  ['STS.U16 of the value', 1],
];
/** Instructions per 64×1 tile of Algorithm 1 (setup). */
export const ALGORITHM1_PER_TILE: readonly (readonly [string, number])[] = [
  ['nnz = popcount of the bitmap (2 POPC, IADD)', 3],
  ["column base of the thread's tile in the shared tile (IMAD)", 1],
  ['bitmap copy into the loop register pair (2 MOV)', 2],
];
/**
 * The loop-carried dependency chain of one Algorithm 1 step, cycles from one step's bitmap to the
 * next's: a warp cannot start step i + 1 before step i has cleared its bit, whatever the issue
 * slots. Latencies are dependent issue-to-issue cycles: 6 for the integer ALU ops and 30 for FLO,
 * which runs on the variable-latency (MIO/XU) path, plus a taken branch's refetch — assumptions
 * (no instruction-latency table in docs/reference/), the same on every profile, for every shape, N and
 * sparsity. The STS.U16 of the value hangs off the chain (its address needs pos, nothing needs it).
 */
export const ALGORITHM1_CHAIN_PER_STEP: readonly (readonly [string, number])[] = [
  ['FLO.U32 on the bitmap half (leading-zero count, variable-latency unit)', 30],
  ['ISETP hi == 0 → SEL of the count → IADD to pos (3 dependent ALU ops)', 18],
  ['64-bit shift of the MSB mask: SHF → SEL for pos ≥ 32 (2 dependent ALU ops)', 12],
  ['and-not of the mask into the bitmap (LOP3)', 6],
  ['loop guard i < nnz: ISETP → taken BRA, refetch', 20],
];
/** The assumed chain of one Algorithm 1 step, cycles (where a compute profile has no measured one). */
export const ALGORITHM1_STEP_CYCLES = ALGORITHM1_CHAIN_PER_STEP.reduce((total, [, cycles]) => total + cycles, 0);
/** Cycles per 64×1 tile of Algorithm 1 setup on the chain: POPC (variable-latency) → IADD. */
const ALGORITHM1_TILE_CHAIN = 36;

/**
 * Cycles one warp's extract spends per staged vector (4 items) on its own path, measured on the
 * H200: `stsScatter 50 1 scan 16` replays the extract with one block per SM, where nothing but each
 * warp's own loop sets the pace, and takes 1 587.7 cycles per rep for warp 0's 17 vectors — 93 per
 * vector (gpu/probes/README.md). Each vector is a guarded group — BSSY, 4 PRMT, 7 IMAD, 4 STS.U16,
 * BSYNC, the branch — that computes its addresses into the same registers as the previous groups,
 * so it waits for their STS.U16 to be read: a chain, not independent items. The stall counts
 * ptxas encodes in the harness's sm_90 binary add up to 52–55 cycles per group (the value before
 * this measurement): the rest is the variable wait for the shared-store path to read the previous
 * stores' registers, which no encoding shows. The same on every profile (sm_89 compiles the same
 * loop; unmeasured there, where Flash-LLM is DRAM-bound).
 */
export const FLASHLLM_EXTRACT_CYCLES_PER_VECTOR = 93;

/** Instructions per Tiled-CSL item of Flash-LLM's extract (registers → shared memory). */
export const FLASHLLM_EXTRACT_PER_ITEM: readonly (readonly [string, number])[] = [
  ['location = item >> 16 (SHF)', 1],
  ['shared address base + 2·location (LEA)', 1],
  ['STS.U16 of the value half', 1],
  ['vector loop: one compare/branch per 4 items (ISETP, BRA)', 0.5],
];

const sum = (rows: readonly (readonly [string, number])[]): number =>
  rows.reduce((total, [, count]) => total + count, 0);

/** Per-warp instruction overheads of every iteration, all kernels. */
const ITERATION_OVERHEAD_INSTRUCTIONS = 8; // address increments, loop counter and branch, cp.async commit/wait
const BARRIERS_PER_ITERATION = 2; // after the shared tile is written, and before it is overwritten (Fig. 4)
const BYTES_PER_WAVEFRONT = 128;
const STS128_BYTES_PER_WARP = THREADS_PER_WARP * 16;
const HALF = 2;

/** A kernel's SM-side cost of one block-iteration. */
export interface IterationCosts {
  /** Warp instructions each warp issues (each warp has its own scheduler). */
  readonly warpInstructions: number;
  /** Of those, the decompression's (zero-init of the shared tile + Algorithm 1 / extract). */
  readonly decompressInstructions: number;
  /** Shared-memory wavefronts of the whole block. */
  readonly sharedWavefronts: number;
  /** Of those, bank-conflict extras of the decompression stores. */
  readonly conflictWavefronts: number;
  /** MMAs each warp issues. */
  readonly mmasPerWarp: number;
  /** Global-load instructions per warp (from the load generator's shape; mean over the matrix). */
  readonly loadInstructions: number;
  /** Bytes of shared memory one block allocates. */
  readonly sharedBytesPerBlock: number;
  /** Registers per thread (assumption, listed in registersPerThread). */
  readonly registersPerThread: number;
  /** Block-wide barriers per iteration. */
  readonly barriers: number;
  /** Whether the next tile's loads are consumed in the same iteration they are issued (register staging). */
  readonly loadsInRegisters: boolean;
  /**
   * Global-memory round trips one iteration waits for in sequence: 2 for the bitmap format (the
   * values' addresses come from the offsets loaded the same iteration — the LDG → use distance
   * of the offsets is a whole load latency), 1 otherwise (Flash-LLM prefetches its tileOffsets
   * one iteration ahead, memory.md §4b).
   */
  readonly dependentLoadRounds: number;
  /**
   * Cycles of a warp's decompression on its own dependency chain (0 = issue-bound or none), with
   * Algorithm 1's steps at the assumed ALGORITHM1_STEP_CYCLES.
   */
  readonly decompressChainCycles: number;
  /** Algorithm 1 steps on that chain per iteration (the block's slowest warp's; 0 for the other kernels). */
  readonly algorithm1Steps: number;
  /** Scattered 16-bit shared-memory stores (warp STS.U16) the block's decompression issues per iteration. */
  readonly scatteredStores: number;
}

/** Registers per thread (assumptions; they only decide residency where shared memory does not). */
export const REGISTERS_PER_THREAD: Readonly<Record<SpmmKernel, number>> = {
  dense: 96,
  flashllm: 160, // 64 staging registers (NUM_REG_FOR_SPARSE_KERNEL, memory.md §4b) + fragments and addresses
  coruscant: 160, // 2 tiles × 32 value registers + 4 bitmap + 16 accumulators + addresses
  // The same register arrays as the software kernel: coruscant_stc/csrc/SpMM_Kernel.cuh holds one
  // Registers_nz[64] ("enough to hold non-zero values for 2 tiles"), Registers_bmp[2], Registers_nnz[2]
  // and the accumulators, not a second (double) buffer.
  stc: 160,
};

/** Mean over the matrix's warp-iterations of Σ over the two tile slots of the most nonzeros any lane has (the steps the warp executes). */
export function meanAlgorithm1Steps(layout: SparseWeightLayout): number {
  const counts = tileNonzeroCounts(layout);
  const tiles = counts.length;
  let steps = 0;
  let warps = 0;
  for (let t0 = 0; t0 < tiles; t0 += 2 * THREADS_PER_WARP) {
    for (let slot = 0; slot < 2; slot++) {
      let most = 0;
      for (let lane = 0; lane < THREADS_PER_WARP; lane++) most = Math.max(most, counts[t0 + 2 * lane + slot]!);
      steps += most;
    }
    warps++;
  }
  return steps / warps;
}

/**
 * Mean over the matrix's block-iterations of the steps of the block's slowest warp: the barrier
 * after the decompression (Fig. 4) waits for all four warps of the block, so the block's chain is
 * its fullest warp's, not the mean warp's (the mean sets the issue slots, the maximum the chain).
 * Warp w of the block on row block 4b + w and K tile c decompresses the 64 column tiles
 * (4b + w)·K + 64c … + 63.
 */
export function blockAlgorithm1Steps(layout: SparseWeightLayout): number {
  const counts = tileNonzeroCounts(layout);
  const rowBlocks = counts.length / layout.k;
  const kTiles = Math.floor(layout.k / TILE_K);
  const warpRows = TILE_M / WARPS_PER_BLOCK / 64;
  let steps = 0;
  let blocks = 0;
  for (let first = 0; first < rowBlocks; first += WARPS_PER_BLOCK * warpRows) {
    for (let c = 0; c < kTiles; c++) {
      let slowest = 0;
      for (let w = 0; w < WARPS_PER_BLOCK * warpRows && first + w < rowBlocks; w++) {
        const t0 = (first + w) * layout.k + c * TILE_K;
        let warp = 0;
        for (let slot = 0; slot < 2; slot++) {
          let most = 0;
          for (let lane = 0; lane < THREADS_PER_WARP; lane++) most = Math.max(most, counts[t0 + 2 * lane + slot]!);
          warp += most;
        }
        slowest = Math.max(slowest, warp);
      }
      steps += slowest;
      blocks++;
    }
  }
  return blocks === 0 ? 0 : steps / blocks;
}

/**
 * Flash-LLM's staging over the matrix's block-iterations (block row b, K tile c: its tiles 2b and
 * 2b + 1 of Tiled-CSL tile column c): the mean vectors the compiled kernel loads per block-iteration
 * (flashLlmStagedVectors) and the mean tile-1 loads that wait for all earlier ones
 * (flashLlmSerialLoads), each a load round trip on the block's chain.
 */
export function flashLlmStaging(layout: SparseWeightLayout): {
  vectors: number;
  serialLoads: number;
  warpSteps: number;
} {
  const offsets = layout.tiledCsl.tileOffsets;
  const tileCols = Math.ceil(layout.k / TILED_CSL_TILE_COLS);
  const pairs = Math.floor(layout.m / TILE_M);
  const vectorsOf = (tile: number): number => offsets[tile + 1]! - offsets[tile]!;
  let vectors = 0;
  let serialLoads = 0;
  let warpSteps = 0;
  for (let b = 0; b < pairs; b++) {
    for (let c = 0; c < tileCols; c++) {
      const first = vectorsOf(2 * b * tileCols + c);
      const second = vectorsOf((2 * b + 1) * tileCols + c);
      vectors += flashLlmStagedVectors(first, 0) + flashLlmStagedVectors(second, 1);
      serialLoads += flashLlmSerialLoads(first);
      warpSteps += flashLlmSteps(first, 0) + flashLlmSteps(second, 1);
    }
  }
  const blocks = Math.max(1, pairs * tileCols);
  return { vectors: vectors / blocks, serialLoads: serialLoads / blocks, warpSteps: warpSteps / blocks };
}

/** Mean LDG.128 instructions per warp for the values of its 64 tiles (per slot, the most 4-word chunks any lane has). */
function meanValueLoads(layout: SparseWeightLayout): number {
  const counts = tileNonzeroCounts(layout);
  const tiles = counts.length;
  let loads = 0;
  for (let t0 = 0; t0 < tiles; t0 += 2 * THREADS_PER_WARP) {
    for (let slot = 0; slot < 2; slot++) {
      let most = 0;
      for (let lane = 0; lane < THREADS_PER_WARP; lane++)
        most = Math.max(most, kernelTileWords(counts[t0 + 2 * lane + slot]!) / 4);
      loads += most;
    }
  }
  return loads / (tiles / (2 * THREADS_PER_WARP));
}

/** Wavefronts per decompression store instruction, column-wise tiling, over up to `samples` warp tiles of the matrix. */
export function algorithm1WavefrontsPerStore(layout: SparseWeightLayout, samples = 16): number {
  const warpTiles = layout.kernel.bitmapHi.length / (2 * THREADS_PER_WARP);
  let stores = 0;
  let wavefronts = 0;
  for (let s = 0; s < Math.min(samples, warpTiles); s++) {
    const t0 = Math.floor((s * warpTiles) / Math.min(samples, warpTiles)) * 2 * THREADS_PER_WARP;
    const bitmaps = Array.from(
      { length: 2 * THREADS_PER_WARP },
      (_, i) => (BigInt(layout.kernel.bitmapHi[t0 + i]!) << 32n) | BigInt(layout.kernel.bitmapLo[t0 + i]!),
    );
    const result = decompressionBankConflicts('column', bitmaps);
    stores += result.storeInstructions;
    wavefronts += result.wavefronts;
  }
  return stores === 0 ? 1 : wavefronts / stores;
}

/**
 * Wavefronts per STS of Flash-LLM's extract on the first Tiled-CSL tile: vector v of the tile sits
 * in thread v mod 64's registers (step v div 64), and item q of every thread's vector is stored by
 * one warp instruction at 2·location in the 128×64 shared tile (the encoder's swizzled locations;
 * items in scan order, i.e. without Flash-LLM's optional bank-balancing shuffle).
 */
export function flashLlmWavefrontsPerStore(layout: SparseWeightLayout): number {
  const items = firstTiledCslTileItems(layoutPatch(layout, 0, 0, TILED_CSL_TILE_ROWS, TILED_CSL_TILE_COLS));
  const vectors = items.length / TILED_CSL_VECTOR_ITEMS;
  let stores = 0;
  let wavefronts = 0;
  for (let first = 0; first < vectors; first += THREADS_PER_WARP) {
    for (let q = 0; q < TILED_CSL_VECTOR_ITEMS; q++) {
      const addresses: number[] = [];
      let mask = 0;
      for (let lane = 0; lane < THREADS_PER_WARP && first + lane < vectors; lane++) {
        addresses.push(HALF * (items[(first + lane) * TILED_CSL_VECTOR_ITEMS + q]! >>> 16));
        mask |= 1 << lane;
      }
      while (addresses.length < THREADS_PER_WARP) addresses.push(0);
      stores++;
      wavefronts += sharedMemoryWavefronts(addresses, mask >>> 0);
    }
  }
  return stores === 0 ? 1 : wavefronts / stores;
}

/** Costs of one block-iteration of `kernel` for B of N columns. */
export function iterationCosts(kernel: SpmmKernel, layout: SparseWeightLayout, n: number): IterationCosts {
  const aTileBytes = TILE_M * TILE_K * HALF;
  const bTileBytes = TILE_K * n * HALF;
  const bLoads = Math.ceil(bTileBytes / STS128_BYTES_PER_WARP / WARPS_PER_BLOCK);
  const hmmaPerWarp = (TILE_M / WARPS_PER_BLOCK / 16) * (TILE_K / 16) * Math.ceil(n / 8);
  // ldmatrix.x4 moves 512 B per warp: the warp's 64×64 A fragment once, and B (64×N) per warp.
  const fragmentLoads = aTileBytes / WARPS_PER_BLOCK / 512 + Math.ceil(bTileBytes / 512);
  const hmmaShared =
    aTileBytes / BYTES_PER_WAVEFRONT +
    WARPS_PER_BLOCK * Math.ceil(bTileBytes / BYTES_PER_WAVEFRONT) +
    bTileBytes / BYTES_PER_WAVEFRONT;
  const doubleBufferedA = 2 * (aTileBytes + bTileBytes);
  const zeroInit = aTileBytes / WARPS_PER_BLOCK / STS128_BYTES_PER_WARP; // STS.128 per warp
  const common = ITERATION_OVERHEAD_INSTRUCTIONS + BARRIERS_PER_ITERATION;
  const denseLoads = aTileBytes / WARPS_PER_BLOCK / STS128_BYTES_PER_WARP + bLoads;
  const tableOf: Record<SpmmKernel, () => IterationCosts> = {
    dense: () => ({
      warpInstructions: common + denseLoads + fragmentLoads + hmmaPerWarp,
      decompressInstructions: 0,
      sharedWavefronts: hmmaShared + aTileBytes / BYTES_PER_WAVEFRONT,
      conflictWavefronts: 0,
      mmasPerWarp: hmmaPerWarp,
      loadInstructions: denseLoads,
      sharedBytesPerBlock: doubleBufferedA,
      registersPerThread: REGISTERS_PER_THREAD.dense,
      barriers: BARRIERS_PER_ITERATION,
      loadsInRegisters: false,
      dependentLoadRounds: 1,
      decompressChainCycles: 0,
      algorithm1Steps: 0,
      scatteredStores: 0,
    }),
    flashllm: () => {
      // What the compiled kernel stages: all of tile 1, of tile 2 its first 8 steps (kernels.ts FLASHLLM_STAGING).
      const staging = flashLlmStaging(layout);
      const itemsPerBlock = staging.vectors * TILED_CSL_VECTOR_ITEMS;
      const storesPerWarp = itemsPerBlock / WARPS_PER_BLOCK / THREADS_PER_WARP;
      const perStore = flashLlmWavefrontsPerStore(layout);
      const loads = 1 + staging.vectors / THREADS_PER_WARP / WARPS_PER_BLOCK + bLoads;
      const decompress = zeroInit + storesPerWarp * sum(FLASHLLM_EXTRACT_PER_ITEM);
      return {
        warpInstructions: common + loads + decompress + fragmentLoads + hmmaPerWarp,
        decompressInstructions: decompress,
        sharedWavefronts: hmmaShared + aTileBytes / BYTES_PER_WAVEFRONT + WARPS_PER_BLOCK * storesPerWarp * perStore,
        conflictWavefronts: WARPS_PER_BLOCK * storesPerWarp * (perStore - 1),
        mmasPerWarp: hmmaPerWarp,
        loadInstructions: loads,
        sharedBytesPerBlock: doubleBufferedA,
        registersPerThread: REGISTERS_PER_THREAD.flashllm,
        barriers: BARRIERS_PER_ITERATION,
        loadsInRegisters: true,
        // The tileOffsets are prefetched an iteration ahead (one round trip), but tile 1's loads
        // from step 8 on each wait for all earlier loads (registers shared with tile 2's steps 0 … 7).
        dependentLoadRounds: 1 + staging.serialLoads,
        // Warp 0's extract groups (one per staged vector of each tile), a chain through the reused
        // address registers; the barrier after the extract waits for warp 0, which has the most.
        decompressChainCycles: staging.warpSteps * FLASHLLM_EXTRACT_CYCLES_PER_VECTOR,
        algorithm1Steps: 0,
        scatteredStores: WARPS_PER_BLOCK * storesPerWarp,
      };
    },
    coruscant: () => {
      const steps = meanAlgorithm1Steps(layout);
      const slowestSteps = blockAlgorithm1Steps(layout);
      const perStore = algorithm1WavefrontsPerStore(layout);
      const loads = 3 + meanValueLoads(layout) + bLoads;
      const decompress = zeroInit + 2 * sum(ALGORITHM1_PER_TILE) + steps * sum(ALGORITHM1_PER_NONZERO);
      return {
        warpInstructions: common + loads + decompress + fragmentLoads + hmmaPerWarp,
        decompressInstructions: decompress,
        sharedWavefronts: hmmaShared + aTileBytes / BYTES_PER_WAVEFRONT + WARPS_PER_BLOCK * steps * perStore,
        conflictWavefronts: WARPS_PER_BLOCK * steps * (perStore - 1),
        mmasPerWarp: hmmaPerWarp,
        loadInstructions: loads,
        sharedBytesPerBlock: doubleBufferedA,
        registersPerThread: REGISTERS_PER_THREAD.coruscant,
        barriers: BARRIERS_PER_ITERATION,
        loadsInRegisters: true,
        dependentLoadRounds: 2,
        // Zero-init issues, then per slot the tile setup and the fullest lane's steps on the chain,
        // of the block's slowest warp (the barrier after the decompression waits for it).
        decompressChainCycles: zeroInit + 2 * ALGORITHM1_TILE_CHAIN + slowestSteps * ALGORITHM1_STEP_CYCLES,
        algorithm1Steps: slowestSteps,
        scatteredStores: WARPS_PER_BLOCK * steps,
      };
    },
    stc: () => {
      // m32n1k64: the warp's 64 rows are 2 MMAs per column of B; each MMA reads its 64-element
      // B column (128 B) from shared memory into the broadcast registers (one LDS.128 per 8 lanes).
      const mmas = 2 * n;
      const loads = 3 + meanValueLoads(layout) + bLoads;
      return {
        warpInstructions: ITERATION_OVERHEAD_INSTRUCTIONS + 1 + loads + 2 * mmas,
        decompressInstructions: 0,
        sharedWavefronts:
          bTileBytes / BYTES_PER_WAVEFRONT + (WARPS_PER_BLOCK * mmas * (TILE_K * HALF)) / BYTES_PER_WAVEFRONT,
        conflictWavefronts: 0,
        mmasPerWarp: mmas,
        loadInstructions: loads,
        sharedBytesPerBlock: 2 * bTileBytes,
        registersPerThread: REGISTERS_PER_THREAD.stc,
        barriers: 1, // only B goes through shared memory
        loadsInRegisters: true,
        dependentLoadRounds: 2,
        decompressChainCycles: 0,
        algorithm1Steps: 0,
        scatteredStores: 0,
      };
    },
  };
  return tableOf[kernel]();
}

/** Thread blocks one SM holds at once: shared memory, registers, and a cap of 16. */
export function residentBlocks(costs: IterationCosts, compute: ComputeProfile): number {
  const byShared = Math.floor(compute.sharedMemoryBytesPerSm / costs.sharedBytesPerBlock);
  const byRegisters = Math.floor(
    compute.registersPerSm / (costs.registersPerThread * WARPS_PER_BLOCK * THREADS_PER_WARP),
  );
  return Math.max(1, Math.min(16, byShared, byRegisters));
}
