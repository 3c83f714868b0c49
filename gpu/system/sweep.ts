import { computeProfile } from './computeProfiles.ts';
import { SPMM_KERNELS, TILE_K, TILE_M, type SpmmKernel } from './kernels.ts';
import { randomLayouts, type SparseWeightLayout } from './sparseLayout.ts';
import { measureMmaUnit, sampledTiles, type MmaCycles, type NumericsCheck } from './tensorCoreCycles.ts';
import { modelKernel, storedBytes, type KernelTiming } from './timingModel.ts';

/**
 * Sweeps of the system model over shapes, sparsities and N (paper Fig. 16, 17, 23, 24b). One
 * seeded random layout per (shape, sparsity) serves all four kernels; the tensor core's cycles
 * are measured on the RTL once per sweep, and the same run checks sampled tiles' numbers.
 */

/** What to sweep. */
export interface SweepOptions {
  readonly profile: string;
  readonly shapes: readonly { readonly m: number; readonly k: number }[];
  readonly sparsities: readonly number[];
  readonly n: number;
  readonly kernels?: readonly SpmmKernel[];
  /** N values of the speedup-vs-N sweep (first shape, `nSweepSparsity`); empty = none. */
  readonly nValues?: readonly number[];
  readonly nSweepSparsity?: number;
  readonly seed: number;
  /** Sector requests simulated per kernel run; more block-iterations are scaled from them. */
  readonly sectorBudget: number;
  readonly splitK?: number;
  /** Called after every kernel run. */
  readonly onRun?: (done: number, total: number) => void;
}

/** A sweep's results. */
export interface SweepResult {
  readonly profile: string;
  readonly mma: MmaCycles;
  readonly numerics: NumericsCheck;
  readonly runs: readonly KernelTiming[];
  /** The speedup-vs-N runs (kernel, n, time). */
  readonly nRuns: readonly KernelTiming[];
  /** PCIe bandwidth used for the offload figure, GB/s. */
  readonly pcieGBps: number;
  readonly seconds: number;
}

/**
 * The channel sample (1 in F DRAM channels, channelSample.ts) of a sweep run: about `budget`
 * sector requests simulated, i.e. the kernel's sectors / budget. The sample never has fewer than
 * one channel of each type per partition, which for the paper's shapes is what it gets (6 of 48
 * channels on h200, 3 of 12 on the RTX cards); a sample whose channels finish apart is rerun on
 * all of them (timingModel.ts).
 */
export function sampleFactor(kernel: SpmmKernel, layout: SparseWeightLayout, n: number, budget: number): number {
  const shape = { m: layout.m, k: layout.k, n };
  const iterations = (layout.m / TILE_M) * (layout.k / TILE_K);
  // Bitmap-format values are fetched one sector per 16-byte chunk (see kernelTraces), so they count twice.
  const sectorsPerByte = kernel === 'coruscant' || kernel === 'stc' ? 2 / 32 : 1 / 32;
  const sectors = storedBytes(kernel, shape, layout) * sectorsPerByte + iterations * ((TILE_K * n * 2) / 32);
  return Math.max(1, Math.floor(sectors / budget));
}

/** The MMA cycle counts and the numeric check, from two sampled tiles of `layout` run through the MmaUnit. */
export async function measureTensorCore(
  layout: SparseWeightLayout,
  seed: number,
): Promise<{ mma: MmaCycles; numerics: NumericsCheck }> {
  const { tiles, b } = sampledTiles(layout, 2, seed);
  const { cycles, check } = await measureMmaUnit(tiles, b);
  return { mma: cycles, numerics: check };
}

/** Runs the sweep. */
export async function runSweep(options: SweepOptions): Promise<SweepResult> {
  const start = performance.now();
  const kernels = options.kernels ?? SPMM_KERNELS;
  const nValues = options.nValues ?? [];
  const total = options.shapes.length * options.sparsities.length * kernels.length + nValues.length * kernels.length;
  let done = 0;
  const tick = (): void => options.onRun?.(++done, total);
  const runs: KernelTiming[] = [];
  const nRuns: KernelTiming[] = [];
  let tensor: { mma: MmaCycles; numerics: NumericsCheck } | undefined;
  for (const [shapeIndex, { m, k }] of options.shapes.entries()) {
    const wanted =
      shapeIndex === 0 && nValues.length > 0
        ? [...new Set([...options.sparsities, options.nSweepSparsity ?? 0.5])]
        : options.sparsities;
    const layouts = randomLayouts(m, k, wanted, options.seed);
    tensor ??= await measureTensorCore(layouts[0]!, options.seed);
    const { mma } = tensor;
    // The dense kernel reads only the layout's shape, so one run serves every sparsity of a shape.
    let dense: KernelTiming | undefined;
    options.sparsities.forEach((_, s) => {
      for (const kernel of kernels) {
        const layout = layouts[s]!;
        if (kernel === 'dense' && dense !== undefined) {
          runs.push({ ...dense, sparsity: 1 - layout.nonzeros / (layout.m * layout.k) });
          tick();
          continue;
        }
        const run = modelKernel({
          profile: options.profile,
          kernel,
          shape: { m, k, n: options.n },
          layout,
          mma,
          sample: sampleFactor(kernel, layout, options.n, options.sectorBudget),
          ...(options.splitK === undefined ? {} : { splitK: options.splitK }),
        });
        if (kernel === 'dense') dense = run;
        runs.push(run);
        tick();
      }
    });
    if (shapeIndex === 0) {
      const layout = layouts[wanted.indexOf(options.nSweepSparsity ?? 0.5)]!;
      for (const n of nValues) {
        for (const kernel of kernels) {
          nRuns.push(
            modelKernel({
              profile: options.profile,
              kernel,
              shape: { m, k, n },
              layout,
              mma,
              sample: sampleFactor(kernel, layout, n, options.sectorBudget),
            }),
          );
          tick();
        }
      }
    }
  }
  if (tensor === undefined) throw new RangeError('a sweep needs at least one shape');
  return {
    profile: options.profile,
    ...tensor,
    runs,
    nRuns,
    pcieGBps: computeProfile(options.profile).pcieGBps,
    seconds: (performance.now() - start) / 1000,
  };
}
