import { startProgress } from '../../common/progress.ts';
import { FieldError } from '../../common/errors.ts';
import { memoryProfile } from '../memory/profiles.ts';
import { checkSparsity } from '../../coruscant/golden/pruning/sparsity.ts';
import { checkShape, gridPlan, SPMM_KERNELS, type SpmmKernel, type SpmmShape } from './kernels.ts';
import { randomLayout } from './sparseLayout.ts';
import { measureTensorCore } from './sweep.ts';
import type { MmaCycles, NumericsCheck } from './tensorCoreCycles.ts';
import { checkRotatingCopies, modelKernel, type KernelTiming } from './timingModel.ts';

/** What `gen memsim --kernel` and `gen spmm --model` ask for. */
export interface ModelRequest {
  readonly profile: string;
  readonly kernels: readonly SpmmKernel[];
  readonly shape: SpmmShape;
  readonly sparsity: number;
  readonly seed: number;
  readonly splitK?: number;
  readonly sample?: number;
  /** The what-if store path of KernelModelInput.storeCycles. */
  readonly storeCycles?: number;
  /** The timed launches' rotation of KernelModelInput.rotatingCopies (0: cold, as Nsight Compute). */
  readonly rotatingCopies?: number;
}

/** Model runs of one problem: the RTL measurement and check, and one timing per kernel. */
export interface ModelRun {
  readonly mma: MmaCycles;
  readonly numerics: NumericsCheck;
  readonly timings: readonly KernelTiming[];
}

/** The kernels a `--kernel` value names ('all' = the four). */
export function kernelsNamed(name: string): SpmmKernel[] {
  if (name === 'all') return [...SPMM_KERNELS];
  if (!(SPMM_KERNELS as readonly string[]).includes(name))
    throw new FieldError('kernel', `${name}: choose ${SPMM_KERNELS.join(', ')} or all`);
  return [name as SpmmKernel];
}

/** Runs the system model for one problem, with a progress bar over the memory model's rounds. */
export async function runModel(request: ModelRequest): Promise<ModelRun> {
  memoryProfile(request.profile);
  checkShape(request.shape);
  checkSparsity(request.sparsity);
  if (request.splitK !== undefined) gridPlan(request.shape, request.splitK);
  if (request.sample !== undefined && !(Number.isSafeInteger(request.sample) && request.sample >= 1))
    throw new FieldError('sample', `${request.sample}: give a whole number ≥ 1`);
  if (request.rotatingCopies !== undefined) checkRotatingCopies(request.rotatingCopies);
  const layout = randomLayout(request.shape.m, request.shape.k, request.sparsity, request.seed);
  const { mma, numerics } = await measureTensorCore(layout, request.seed);
  if (numerics.mismatches > 0)
    throw new Error(`RTL lane disagrees with golden SpMM on sampled tiles: ${numerics.firstMismatch ?? ''}`);
  const timings = request.kernels.map((kernel) => {
    let progress: ReturnType<typeof startProgress> | undefined;
    const timing = modelKernel(
      {
        profile: request.profile,
        kernel,
        shape: request.shape,
        layout,
        mma,
        ...(request.splitK === undefined ? {} : { splitK: request.splitK }),
        ...(request.sample === undefined ? {} : { sample: request.sample }),
        ...(request.storeCycles === undefined ? {} : { storeCycles: request.storeCycles }),
        ...(request.rotatingCopies === undefined ? {} : { rotatingCopies: request.rotatingCopies }),
      },
      (done, total) => {
        progress ??= startProgress(`${kernel} rounds`, total);
        progress.tick();
        if (done === total) progress.stop();
      },
    );
    return timing;
  });
  return { mma, numerics, timings };
}
