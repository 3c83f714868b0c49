import { kernelTileWords } from '../../coruscant/golden/formats/kernelFormat.ts';
import { TILED_CSL_TILE_COLS, TILED_CSL_VECTOR_ITEMS } from '../../coruscant/golden/formats/tiledCsl.ts';
import { pushWarpAccess } from '../memory/coalescer.ts';
import type { TraceBuilder } from '../memory/requestTrace.ts';
import {
  flashLlmStagedVectors,
  THREADS_PER_WARP,
  TILE_K,
  TILE_M,
  WARP_ROWS,
  WARPS_PER_BLOCK,
  type SpmmKernel,
  type SpmmShape,
} from './kernels.ts';
import { tileNonzeroCounts, type SparseWeightLayout } from './sparseLayout.ts';

/**
 * The global loads of one thread-block iteration (one 256×64 tile of A and the 64×N tile of B) of
 * each kernel, as warp instructions whose per-thread addresses index the formats' real arrays at
 * their real byte offsets; each instruction goes through the GPU coalescing rule
 * (pushWarpAccess) into 32-byte sector requests. Stores (C/D, split-K partials) are not traced:
 * the path model is loads-only, so the timing model charges them analytically.
 */

/** A region of the modeled global address space. */
export interface ArrayRegion {
  readonly name: string;
  readonly base: number;
  readonly bytes: number;
}

/** Which operand a load belongs to. */
export type Operand = 'A' | 'B';

/** Loads issued so far, per operand. */
export interface LoadAccounting {
  /** Warp load instructions. */
  instructions: number;
  /** Bytes the threads asked for (active threads × access size). */
  threadBytes: number;
  /** 32-byte sector requests after coalescing each warp instruction. */
  sectors: number;
}

/** Regions start on 2 MiB boundaries, as large cudaMalloc allocations do. */
const REGION_ALIGN = 2 ** 21;
const LDG128 = 16;

/** Lays the regions out one after another from address 0. */
function placeRegions(sizes: readonly (readonly [string, number])[]): ArrayRegion[] {
  let base = 0;
  return sizes.map(([name, bytes]) => {
    const region = { name, base, bytes };
    base += Math.ceil(Math.max(bytes, 1) / REGION_ALIGN) * REGION_ALIGN;
    return region;
  });
}

/** Collects warp loads into a trace and counts them per operand. */
export class LoadRecorder {
  readonly accounting: Record<Operand, LoadAccounting> = {
    A: { instructions: 0, threadBytes: 0, sectors: 0 },
    B: { instructions: 0, threadBytes: 0, sectors: 0 },
  };
  private readonly addresses = new Array<number>(THREADS_PER_WARP).fill(0);
  constructor(readonly trace: TraceBuilder) {}

  /** One warp load instruction: `address(lane)` for each lane set in `mask`. */
  warpLoad(
    operand: Operand,
    sm: number,
    time: number,
    accessBytes: number,
    mask: number,
    address: (lane: number) => number,
  ): void {
    if (mask === 0) return;
    let active = 0;
    for (let lane = 0; lane < THREADS_PER_WARP; lane++) {
      if (((mask >>> lane) & 1) === 0) continue;
      this.addresses[lane] = address(lane);
      active++;
    }
    const counts = this.accounting[operand];
    counts.instructions++;
    counts.threadBytes += active * accessBytes;
    counts.sectors += pushWarpAccess(this.trace, sm, time, this.addresses, accessBytes, mask);
  }
}

/**
 * Emits one block-iteration's loads, all at cycle `time`: the block's warps issue them within
 * ~20 cycles, below the model's resolution, and keeping one SM's requests together stands in for
 * the FR-FCFS row batching of a real DRAM controller, which the path model (FCFS) lacks —
 * otherwise the interleaving of 142 SMs' instruction streams, not the formats, would decide the
 * DRAM row-hit rate.
 */
export interface KernelLoads {
  readonly kernel: SpmmKernel;
  readonly regions: readonly ArrayRegion[];
  blockIteration(recorder: LoadRecorder, sm: number, time: number, rowBlock: number, kTile: number): void;
}

/** Lane mask of lanes 0 … count−1. */
function lanesBelow(count: number): number {
  if (count <= 0) return 0;
  return count >= 32 ? 0xffffffff : ((1 << count) - 1) >>> 0;
}

/** B (K×N FP16, row-major): rows 64·kTile … +63 are 128·N contiguous bytes, copied 16 B per thread (cp.async). */
function loadB(recorder: LoadRecorder, b: ArrayRegion, n: number, sm: number, time: number, kTile: number): void {
  const tileBytes = TILE_K * n * 2;
  const base = b.base + kTile * tileBytes;
  const chunks = tileBytes / LDG128;
  for (let first = 0; first < chunks; first += THREADS_PER_WARP) {
    recorder.warpLoad('B', sm, time, LDG128, lanesBelow(chunks - first), (lane) => base + (first + lane) * LDG128);
  }
}

/** Dense A, row-major FP16: each warp copies its 64 rows × 128 bytes, 4 rows per LDG.128 instruction. */
function denseLoads(shape: SpmmShape): KernelLoads {
  const regions = placeRegions([
    ['A (dense FP16)', 2 * shape.m * shape.k],
    ['B', 2 * shape.k * shape.n],
  ]);
  const [a, b] = regions as [ArrayRegion, ArrayRegion];
  const rowBytes = 2 * shape.k;
  return {
    kernel: 'dense',
    regions,
    blockIteration(recorder, sm, time, rowBlock, kTile) {
      for (let warp = 0; warp < WARPS_PER_BLOCK; warp++) {
        const firstRow = rowBlock * TILE_M + warp * WARP_ROWS;
        for (let q = 0; q < WARP_ROWS / 4; q++) {
          recorder.warpLoad(
            'A',
            sm,
            time,
            LDG128,
            0xffffffff,
            (lane) => a.base + (firstRow + 4 * q + (lane >> 3)) * rowBytes + kTile * TILE_K * 2 + (lane & 7) * LDG128,
          );
        }
      }
      loadB(recorder, b, shape.n, sm, time, kTile);
    },
  };
}

/**
 * The bitmap format (Coruscant software kernel and STC): warp w of the block owns 64-row block
 * i = 4·rowBlock + w and its 64 tiles t0 … t0+63 (t0 = i·K + 64·kTile, consecutive in memory);
 * thread l owns tiles t0+2l and t0+2l+1 (docs/reference/facts.md §1a). Per warp: one LDG.128 of the two bitmaps
 * per thread; one LDG.64 of offsets[t0+2l], offsets[t0+2l+1] and one LDG.32 by lane 31 of the
 * closing offsets[t0+64]; then per tile slot s, step j = 0 … 7, an LDG.128 of words 4j … 4j+3 by
 * every thread whose tile has more than 4j words (the unrolled, guarded loads of the reference).
 */
function bitmapLoads(kernel: 'coruscant' | 'stc', shape: SpmmShape, layout: SparseWeightLayout): KernelLoads {
  const { bitmapHi, offsets, valueWords } = layout.kernel;
  const regions = placeRegions([
    ['bitmaps', 8 * bitmapHi.length],
    ['offsets', offsets.byteLength],
    ['values', 4 * valueWords],
    ['B', 2 * shape.k * shape.n],
  ]);
  const [bitmaps, offsetRegion, values, b] = regions as [ArrayRegion, ArrayRegion, ArrayRegion, ArrayRegion];
  const k = shape.k;
  const counts = tileNonzeroCounts(layout);
  const words = (tile: number): number => kernelTileWords(counts[tile]!);
  return {
    kernel,
    regions,
    blockIteration(recorder, sm, time, rowBlock, kTile) {
      for (let warp = 0; warp < WARPS_PER_BLOCK; warp++) {
        const t0 = (rowBlock * WARPS_PER_BLOCK + warp) * k + kTile * TILE_K;
        recorder.warpLoad('A', sm, time, 16, 0xffffffff, (lane) => bitmaps.base + (t0 + 2 * lane) * 8);
        recorder.warpLoad('A', sm, time, 8, 0xffffffff, (lane) => offsetRegion.base + (t0 + 2 * lane) * 4);
        recorder.warpLoad('A', sm, time, 4, 1 << 31, () => offsetRegion.base + (t0 + 64) * 4);
        for (let slot = 0; slot < 2; slot++) {
          for (let step = 0; step < 8; step++) {
            let mask = 0;
            for (let lane = 0; lane < THREADS_PER_WARP; lane++)
              if (words(t0 + 2 * lane + slot) > 4 * step) mask |= 1 << lane;
            if (mask === 0) break;
            recorder.warpLoad(
              'A',
              sm,
              time,
              LDG128,
              mask >>> 0,
              (lane) => values.base + (offsets[t0 + 2 * lane + slot]! + 4 * step) * 4,
            );
          }
        }
      }
      loadB(recorder, b, shape.n, sm, time, kTile);
    },
  };
}

/**
 * Flash-LLM's Tiled-CSL (128×64 tiles): the block's two tiles (rows 256·rowBlock … +127 and
 * +128 … +255 of K tile kTile); lanes 0 and 1 of a warp read tileOffsets[tile] and [tile+1], then
 * the block's 128 threads read each tile's 16-byte vectors of 4 items, vector v by thread v mod 128
 * at step v div 128 (FlashLLM_SpMM_CopyFromGlobalToReg), so each warp instruction reads 32
 * consecutive vectors. Of tile 2 only the vectors the compiled kernel stages are read (the first
 * 8 steps: flashLlmStagedVectors); the rest fall past its register array and are never loaded.
 */
function tiledCslLoads(shape: SpmmShape, layout: SparseWeightLayout): KernelLoads {
  const { tileOffsets, items } = layout.tiledCsl;
  const regions = placeRegions([
    ['tileOffsets', tileOffsets.byteLength],
    ['items', 4 * items],
    ['B', 2 * shape.k * shape.n],
  ]);
  const [offsetRegion, itemRegion, b] = regions as [ArrayRegion, ArrayRegion, ArrayRegion];
  const tileCols = shape.k / TILED_CSL_TILE_COLS;
  const vectorBytes = TILED_CSL_VECTOR_ITEMS * 4;
  return {
    kernel: 'flashllm',
    regions,
    blockIteration(recorder, sm, time, rowBlock, kTile) {
      for (let half = 0; half < 2; half++) {
        const tile = (2 * rowBlock + half) * tileCols + kTile;
        recorder.warpLoad('A', sm, time, 4, 0b11, (lane) => offsetRegion.base + (tile + lane) * 4);
        const start = tileOffsets[tile]!;
        const end = start + flashLlmStagedVectors(tileOffsets[tile + 1]! - start, half as 0 | 1);
        for (let first = start; first < end; first += THREADS_PER_WARP) {
          recorder.warpLoad(
            'A',
            sm,
            time,
            vectorBytes,
            lanesBelow(end - first),
            (lane) => itemRegion.base + (first + lane) * vectorBytes,
          );
        }
      }
      loadB(recorder, b, shape.n, sm, time, kTile);
    },
  };
}

/** The load generator of `kernel` for a problem and (for the sparse kernels) its layout. */
export function kernelLoads(kernel: SpmmKernel, shape: SpmmShape, layout: SparseWeightLayout): KernelLoads {
  const builders: Record<SpmmKernel, () => KernelLoads> = {
    dense: () => denseLoads(shape),
    flashllm: () => tiledCslLoads(shape, layout),
    coruscant: () => bitmapLoads('coruscant', shape, layout),
    stc: () => bitmapLoads('stc', shape, layout),
  };
  return builders[kernel]();
}
