/**
 * The kernels' address traces against the formats' exact sizes, and the layouts against the real
 * encoders. Replay a failing random case with FC_SEED=<seed> npx vitest run tests/gpu/system/traces.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeKernelFormat, kernelFormatBytes } from '../../../coruscant/golden/formats/kernelFormat.ts';
import { encodeTiledCsl, tiledCslBytes } from '../../../coruscant/golden/formats/tiledCsl.ts';
import { TraceBuilder } from '../../../gpu/memory/requestTrace.ts';
import { flashLlmStagedVectors, gridPlan, TILE_K, TILE_M, type SpmmKernel } from '../../../gpu/system/kernels.ts';
import { kernelLoads, LoadRecorder } from '../../../gpu/system/kernelTraces.ts';
import {
  kernelLayoutBytes,
  layoutOfMatrix,
  layoutPatch,
  randomLayout,
  randomLayouts,
  tiledCslLayoutBytes,
  tileNonzeroCounts,
  type SparseWeightLayout,
} from '../../../gpu/system/sparseLayout.ts';
import { fastCheckSeed } from '../../support/seed.ts';

/** Every block-iteration of a kernel through a LoadRecorder (no memory simulation). */
function traceAll(kernel: SpmmKernel, layout: SparseWeightLayout, n: number): LoadRecorder {
  const recorder = new LoadRecorder(new TraceBuilder());
  const loads = kernelLoads(kernel, { m: layout.m, k: layout.k, n }, layout);
  const plan = gridPlan({ m: layout.m, k: layout.k, n }, 1);
  for (let rowBlock = 0; rowBlock < plan.rowBlocks; rowBlock++)
    for (let kTile = 0; kTile < plan.kTiles; kTile++) loads.blockIteration(recorder, 0, 0, rowBlock, kTile);
  return recorder;
}

/** A random FP16 matrix with about `sparsity` zeros (−0 and other patterns kept as values). */
const sparseMatrix = (rows: number, cols: number) =>
  fc
    .tuple(fc.double({ min: 0, max: 0.95, noNaN: true }), fc.integer({ min: 0, max: 2 ** 31 - 1 }))
    .map(([sparsity, seed]) => {
      let state = seed | 1;
      const next = (): number => {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        return (state >>> 0) / 2 ** 32;
      };
      const bits = Uint16Array.from({ length: rows * cols }, () =>
        next() < sparsity ? 0 : 1 + Math.floor(next() * 0xffff),
      );
      return { rows, cols, bits };
    });

describe('sparse layouts', () => {
  it("equal the real encoders' index arrays on random matrices", () => {
    const seed = fastCheckSeed('layout = encoders');
    fc.assert(
      fc.property(sparseMatrix(256, 128), (matrix) => {
        const layout = layoutOfMatrix(matrix);
        const kernel = encodeKernelFormat(matrix);
        const csl = encodeTiledCsl(matrix);
        expect([...layout.kernel.offsets]).toEqual([...kernel.offsets]);
        expect([...layout.tiledCsl.tileOffsets]).toEqual([...csl.tileOffsets]);
        expect(kernelLayoutBytes(layout)).toBe(kernelFormatBytes(kernel));
        expect(tiledCslLayoutBytes(layout)).toBe(tiledCslBytes(csl));
      }),
      { seed, numRuns: 25 },
    );
  });

  it('of a seeded random mask keeps the draws every committed figure was modelled on', () => {
    // Pinned counts: a faster draw loop must keep each mask bit for bit, or every modelled cell moves.
    expect(randomLayout(512, 256, 0.6, 5).nonzeros).toBe(51993);
    expect(randomLayouts(256, 128, [0, 0.3, 0.7], 2).map((layout) => layout.nonzeros)).toEqual([32768, 22902, 9814]);
  });

  it('of a seeded random mask is the encoding of that mask, at the asked sparsity', () => {
    const layout = randomLayout(512, 256, 0.6, 5);
    expect(layout).toEqual(randomLayout(512, 256, 0.6, 5));
    const mask = layoutPatch(layout, 0, 0, 512, 256);
    const again = layoutOfMatrix(mask);
    expect([...again.kernel.offsets]).toEqual([...layout.kernel.offsets]);
    expect([...again.tiledCsl.tileOffsets]).toEqual([...layout.tiledCsl.tileOffsets]);
    expect(1 - layout.nonzeros / (512 * 256)).toBeCloseTo(0.6, 2);
  });
});

describe('kernel address traces', () => {
  const layout = randomLayout(512, 512, 0.5, 11);
  const tiles = layout.kernel.bitmapHi.length;
  const warpIterations = tiles / 64;

  it('Coruscant/STC: A sector bytes follow the exact load rule of the bitmap format', () => {
    // The rule holds when no tile is empty (then no two threads' 16-byte value chunks share a sector).
    expect(tileNonzeroCounts(layout).every((count) => count > 0)).toBe(true);
    for (const kernel of ['coruscant', 'stc'] as const) {
      const { A } = traceAll(kernel, layout, 8).accounting;
      // Threads load every byte of bitmaps, offsets and values once, plus each warp-iteration's closing offset.
      expect(A.threadBytes).toBe(kernelLayoutBytes(layout) - 4 + 4 * warpIterations);
      // Sectors: bitmaps and offsets coalesce fully (512 B and 256 B per warp), the closing offset is one
      // sector, and every 16-byte LDG.128 value chunk is its own 32-byte sector request.
      expect(32 * A.sectors).toBe(8 * tiles + 4 * tiles + 32 * warpIterations + 8 * layout.kernel.valueWords);
    }
  });

  it('dense: A sector bytes equal the matrix bytes; B is read once per block-iteration', () => {
    const { A, B } = traceAll('dense', layout, 8).accounting;
    expect(A.threadBytes).toBe(2 * 512 * 512);
    expect(32 * A.sectors).toBe(2 * 512 * 512);
    expect(B.threadBytes).toBe((512 / TILE_M) * 512 * 8 * 2);
  });

  it("Flash-LLM: threads load every staged item once (tile 2: its first 8 steps' vectors) and two offsets per tile", () => {
    const { A } = traceAll('flashllm', layout, 8).accounting;
    const tileCols = 512 / TILE_K;
    const offsets = layout.tiledCsl.tileOffsets;
    let staged = 0;
    for (let tile = 0; tile < (512 / 128) * tileCols; tile++)
      staged += flashLlmStagedVectors(offsets[tile + 1]! - offsets[tile]!, (Math.floor(tile / tileCols) % 2) as 0 | 1);
    expect(A.threadBytes).toBe(16 * staged + 8 * (512 / 128) * tileCols);
    expect(32 * A.sectors).toBeGreaterThanOrEqual(16 * staged);
    // At this sparsity some second tiles hold more vectors than 8 steps stage.
    expect(staged).toBeLessThan(layout.tiledCsl.items / 4);
  });
});
