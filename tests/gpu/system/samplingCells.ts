import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import { cellLayout, MEASURED_MMA } from './support.ts';

/** One cell of the sampled-against-full comparison: the sweep's own sample factor, N = 8. */
export interface SamplingCell {
  readonly profile: string;
  readonly kernel: SpmmKernel;
  readonly size: number;
  readonly sparsity: number;
}

/** The sampled and the full run's times of one cell, and the relative error. */
export interface SamplingCheck {
  readonly label: string;
  readonly sampleFactor: number;
  readonly sampledUs: number;
  readonly fullUs: number;
  readonly error: number;
  /** The sampled channels' completion spread, and whether it sent the run to all channels. */
  readonly spread: number;
  readonly fellBack: boolean;
}

/** The bound the system model holds sampled runs to (issue 20: within 5 % of full runs). */
export const SAMPLING_BOUND = 0.05;

/** Runs a cell sampled as the sweep samples it (300 k sector budget) and in full. */
export function checkSampling(cell: SamplingCell): SamplingCheck {
  const layout = cellLayout(cell.size, cell.size, cell.sparsity);
  const shape = { m: cell.size, k: cell.size, n: 8 };
  const factor = sampleFactor(cell.kernel, layout, 8, 300_000);
  const input = { profile: cell.profile, kernel: cell.kernel, shape, layout, mma: MEASURED_MMA };
  const sampled = modelKernel({ ...input, sample: factor });
  const full = modelKernel(input);
  return {
    label: `${cell.profile} ${cell.kernel} ${cell.size}² ${Math.round(100 * cell.sparsity)} %`,
    sampleFactor: factor,
    sampledUs: sampled.timeNs / 1000,
    fullUs: full.timeNs / 1000,
    error: sampled.timeNs / full.timeNs - 1,
    spread: sampled.sampling.spread,
    fellBack: sampled.sampling.fellBack,
  };
}

/** One line of the measured table: label, factor, sampled / full µs, error. */
export function formatCheck(check: SamplingCheck): string {
  return (
    `${check.label}: 1 in ${check.sampleFactor}, ${check.sampledUs.toFixed(2)} / ${check.fullUs.toFixed(2)} µs ` +
    `(${check.error >= 0 ? '+' : ''}${(100 * check.error).toFixed(1)} %; sampled channels ${(100 * check.spread).toFixed(1)} % apart` +
    `${check.fellBack ? ', so all simulated' : ''})`
  );
}
