import type { Fp16Matrix } from '../matrix.ts';
import { numberToFp16 } from '../numerics/fp16.ts';
import { Random } from './random.ts';

/**
 * A seeded synthetic stand-in for one LLM linear layer (M outputs × K inputs), for pruning and
 * size experiments without downloading a model. Deterministic per seed. Its shape follows what is
 * reported for real LLM layers:
 * - weights heavy-tailed: Student-t with ν = 4 (finite variance, kurtosis well above a normal's 3),
 *   scaled by 1/√K as initialisation and training keep them; no weight is zero (magnitudes are
 *   held at ≥ 2⁻¹⁴, FP16's smallest normal), so pruning alone decides the sparsity;
 * - activation norms per input channel log-normal around 1, with a few outlier channels
 *   (≈1 %, at least one) 20–50× larger, the "emergent outlier features" of LLM.int8() that make
 *   Wanda keep those channels' weights when magnitude pruning would not.
 */
export interface SyntheticLayer {
  readonly weights: Fp16Matrix;
  /** ‖X_j‖₂ per input channel j (length K). */
  readonly activationNorms: Float64Array;
  /** The outlier input channels, increasing. */
  readonly outlierChannels: readonly number[];
}

export interface SyntheticLayerOptions {
  /** Fraction of input channels that are outliers (default 0.01; at least one channel). */
  readonly outlierFraction?: number;
  /** Degrees of freedom of the weights' Student-t (default 4). */
  readonly degreesOfFreedom?: number;
}

const MIN_NORMAL_FP16 = 2 ** -14;

/** A Student-t deviate with integer ν: Z / √(χ²_ν / ν). */
function studentT(random: Random, degreesOfFreedom: number): number {
  let chiSquared = 0;
  for (let i = 0; i < degreesOfFreedom; i++) chiSquared += random.nextGaussian() ** 2;
  return random.nextGaussian() / Math.sqrt(chiSquared / degreesOfFreedom);
}

/** Generates one synthetic layer; same (rows, cols, seed, options) → same layer. */
export function syntheticLlmLayer(
  rows: number,
  cols: number,
  seed: number,
  options: SyntheticLayerOptions = {},
): SyntheticLayer {
  const degreesOfFreedom = options.degreesOfFreedom ?? 4;
  const outlierFraction = options.outlierFraction ?? 0.01;
  const random = new Random(seed);
  const scale = 1 / Math.sqrt(cols);
  const bits = new Uint16Array(rows * cols);
  for (let i = 0; i < bits.length; i++) {
    const w = studentT(random, degreesOfFreedom) * scale;
    bits[i] = numberToFp16(Math.sign(w || 1) * Math.max(Math.abs(w), MIN_NORMAL_FP16));
  }
  const activationNorms = Float64Array.from({ length: cols }, () => Math.exp(0.25 * random.nextGaussian()));
  const outliers = new Set<number>();
  const outlierCount = Math.min(cols, Math.max(1, Math.round(outlierFraction * cols)));
  while (outliers.size < outlierCount) outliers.add(random.nextInt(cols));
  const outlierChannels = [...outliers].sort((a, b) => a - b);
  for (const channel of outlierChannels)
    activationNorms[channel] = activationNorms[channel]! * (20 + 30 * random.nextFloat());
  return { weights: { rows, cols, bits }, activationNorms, outlierChannels };
}
