/**
 * The H200's SpMM cells through the model, beside silicon's: the calibration table (h200-silicon.md
 * §2, silicon's mean over its four runs) and the harness's seven shapes beside it
 * (`H200_PARITY_ROWS`). The tests hold them to their bounds (h200Spmm.test.ts, parityShapes.test.ts)
 * and h200Tables.ts prints them, from the same comparisons.
 */
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import { modelKernel, type KernelTiming } from '../../../gpu/system/timingModel.ts';
import { H200_PARITY_ROWS, siliconMean, siliconWinner } from '../h200Silicon.ts';
import { MEASURED_MMA, modelH200Cell } from './support.ts';

/** The calibration table's sparsities, one layout each per size, drawn together. */
export const CALIBRATION_SPARSITIES = [0.3, 0.4, 0.5, 0.6, 0.7] as const;

/** The paper's kernels, in the order the tables give them. */
export const PAPER_KERNELS = ['flashllm', 'coruscant', 'stc'] as const;

/** One kernel in one cell: the model's time and silicon's, and for a paper kernel both ratios to cuBLAS. */
export interface CellComparison {
  readonly m: number;
  readonly k: number;
  readonly sparsity: number;
  readonly kernel: SpmmKernel;
  readonly modelUs: number;
  readonly siliconUs: number;
  /** cuBLAS's time over the kernel's, the model's and silicon's (absent for cuBLAS itself). */
  readonly ratios?: { readonly model: number; readonly silicon: number };
  /** Whether the kernel beats cuBLAS on silicon, where silicon's runs agree on it. */
  readonly siliconWins?: boolean;
}

const timings = new Map<string, KernelTiming>();
const layouts = new Map<number, ReturnType<typeof randomLayouts>>();

/**
 * A calibration cell's timing (size², split-K 8 for the paper's kernels, sampled as the sweep
 * samples it), once per process.
 */
export function calibrationTiming(size: number, sparsity: number, kernel: SpmmKernel): KernelTiming {
  const key = `${size} ${sparsity} ${kernel}`;
  const known = timings.get(key);
  if (known) return known;
  const index = (CALIBRATION_SPARSITIES as readonly number[]).indexOf(sparsity);
  if (index < 0)
    throw new Error(`${sparsity}: not one of the table's sparsities (${CALIBRATION_SPARSITIES.join(', ')})`);
  if (!layouts.has(size)) layouts.set(size, randomLayouts(size, size, CALIBRATION_SPARSITIES, 1));
  const layout = layouts.get(size)![index]!;
  const timing = modelKernel({
    profile: 'h200',
    kernel,
    shape: { m: size, k: size, n: 8 },
    layout,
    mma: MEASURED_MMA,
    // cuBLAS picks its own split; the paper's kernels ran at split-K 8.
    ...(kernel === 'dense' ? {} : { splitK: 8 }),
    // Every kernel sampled as the sweep samples it (the dense baseline takes only its bytes from the path).
    sample: sampleFactor(kernel, layout, 8, 300_000),
  });
  timings.set(key, timing);
  return timing;
}

/** The calibration table's cells at one size: cuBLAS, then the paper's kernels, sparsity by sparsity. */
export function calibrationCells(size: number): CellComparison[] {
  const dense = calibrationTiming(size, CALIBRATION_SPARSITIES[0], 'dense').timeNs / 1000;
  return CALIBRATION_SPARSITIES.flatMap((sparsity) => {
    const silicon = siliconMean(size, sparsity);
    const cell = { m: size, k: size, sparsity };
    return [
      { ...cell, kernel: 'dense' as const, modelUs: dense, siliconUs: silicon.cublas },
      ...PAPER_KERNELS.map((kernel) => {
        const modelUs = calibrationTiming(size, sparsity, kernel).timeNs / 1000;
        const winner = siliconWinner(size, sparsity, kernel);
        return {
          ...cell,
          kernel,
          modelUs,
          siliconUs: silicon[kernel],
          ratios: { model: dense / modelUs, silicon: silicon.cublas / silicon[kernel] },
          ...(winner === undefined ? {} : { siliconWins: winner }),
        };
      }),
    ];
  });
}

const parityTimes = new Map<string, number>();
/** A harness shape's modelled µs, once per process; cuBLAS's does not depend on the sparsity. */
function parityModelUs(kernel: SpmmKernel, m: number, k: number, sparsity: number): number {
  const key = `${kernel} ${m} ${k} ${kernel === 'dense' ? '' : sparsity}`;
  if (!parityTimes.has(key)) parityTimes.set(key, modelH200Cell(kernel, m, k, sparsity).timeNs / 1000);
  return parityTimes.get(key)!;
}

/**
 * The harness's cells at one of the seven shapes beside the calibration table. cuBLAS's kernel does
 * not depend on the sparsity, so a shape's two rows are two runs of one call: its time is their
 * mean (they differ by up to 17 %, at 14336 × 4096). Each run agrees with itself on a winner, so
 * every cell has one.
 */
export function parityCells(m: number, k: number): CellComparison[] {
  const rows = H200_PARITY_ROWS.filter((row) => row.m === m && row.k === k);
  if (rows.length === 0) throw new Error(`${m} × ${k}: not one of the harness's shapes`);
  const cublas = rows.reduce((sum, row) => sum + row.cublas, 0) / rows.length;
  return rows.flatMap((row) => {
    const dense = parityModelUs('dense', m, k, row.sparsity);
    const cell = { m, k, sparsity: row.sparsity };
    return [
      { ...cell, kernel: 'dense' as const, modelUs: dense, siliconUs: cublas },
      ...PAPER_KERNELS.map((kernel) => {
        const modelUs = parityModelUs(kernel, m, k, row.sparsity);
        const ratios = { model: dense / modelUs, silicon: cublas / row[kernel] };
        return { ...cell, kernel, modelUs, siliconUs: row[kernel], ratios, siliconWins: ratios.silicon > 1 };
      }),
    ];
  });
}

/** model / silicon − 1 as a signed percentage with one decimal ('+2.8 %', '−11.2 %', '0.0 %'). */
export function percentError(ratio: number): string {
  const tenths = Math.round(1000 * (ratio - 1));
  return `${tenths > 0 ? '+' : tenths < 0 ? '−' : ''}${(Math.abs(tenths) / 10).toFixed(1)} %`;
}

/** One cell as a line of a report: its times and, for a paper kernel, its ratios to cuBLAS. */
export function describeCell(cell: CellComparison): string {
  const time = `${cell.sparsity} ${cell.kernel}: ${cell.modelUs.toFixed(1)} µs against ${cell.siliconUs.toFixed(2)} (${percentError(cell.modelUs / cell.siliconUs)})`;
  if (!cell.ratios) return time;
  const { model, silicon } = cell.ratios;
  const undecided = cell.siliconWins === undefined ? "; silicon's runs disagree on the winner" : '';
  return `${time}, ${model.toFixed(2)}× cuBLAS against ${silicon.toFixed(2)}× (${percentError(model / silicon)})${undecided}`;
}
