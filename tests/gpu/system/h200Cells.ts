/**
 * The H200's SpMM cells through the model, beside silicon's: the calibration table (h200-silicon.md
 * §2, silicon's mean over its four runs) and every other cell the harness ran on the H200
 * (`HARNESS_FILES`). The tests hold them to their bounds (h200Spmm.test.ts, harnessCells.test.ts)
 * and h200Tables.ts prints them, from the same comparisons.
 */
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import type { KernelTiming } from '../../../gpu/system/timingModel.ts';
import { siliconMean, siliconWinner } from '../h200Silicon.ts';
import { harnessRuns, median, modelH200Cell, type HarnessRun } from './support.ts';

/** The calibration table's sparsities, one layout each per size, drawn together. */
export const CALIBRATION_SPARSITIES = [0.3, 0.4, 0.5, 0.6, 0.7] as const;

/** The paper's kernels, in the order the tables give them. */
export const PAPER_KERNELS = ['flashllm', 'coruscant', 'stc'] as const;

/** One kernel in one cell: the model's time and silicon's, and for a paper kernel both ratios to cuBLAS. */
export interface CellComparison {
  readonly m: number;
  readonly k: number;
  readonly sparsity: number;
  readonly splitK: number;
  readonly kernel: SpmmKernel;
  /** Silicon's runs of the cell that its time is the median of. */
  readonly runs: number;
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
  const timing = modelH200Cell(kernel, size, size, sparsity, { layout: layouts.get(size)![index]! });
  timings.set(key, timing);
  return timing;
}

/** The calibration table's cells at one size: cuBLAS, then the paper's kernels, sparsity by sparsity. */
export function calibrationCells(size: number): CellComparison[] {
  const dense = calibrationTiming(size, CALIBRATION_SPARSITIES[0], 'dense').timeNs / 1000;
  return CALIBRATION_SPARSITIES.flatMap((sparsity) => {
    const silicon = siliconMean(size, sparsity);
    const cell = { m: size, k: size, sparsity, splitK: 8, runs: 4 };
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

/**
 * The harness's runs on the H200 beyond the calibration table's (results/…; each `spmm_perf` call
 * times all four kernels): the shapes near parity and at large K (harness.txt), 7168² and 9216² by
 * split-K (splitk.txt), one block per SM on 32, 64 and 128 SMs at three K (stcScale.txt), K 7168
 * from one block per SM to two (mixes.txt, three rounds), and one block per SM on 32, 64, 96 and 128
 * SMs at K 7168 and 28672 (gridK.txt, two rounds).
 */
export const HARNESS_FILES = [
  '2026-12-02/harness.txt',
  '2026-12-02b/splitk.txt',
  '2026-12-03c/stcScale.txt',
  '2026-12-05/mixes.txt',
  '2026-12-06/gridK.txt',
] as const;

/** The harness's label for each of the model's kernels. */
export const HARNESS_LABELS: Readonly<Record<SpmmKernel, string>> = {
  dense: 'CuBlas_TC',
  flashllm: 'FlashLLM',
  coruscant: 'Coruscant',
  stc: 'Coruscant_STC',
};

/** A calibration cell (7168² or 9216² at split-K 8): judged on the table's four-run means instead. */
const isCalibrationCell = (run: HarnessRun): boolean =>
  run.m === run.k && (run.m === 7168 || run.m === 9216) && run.splitK === 8;

const harnessTimes = new Map<string, number>();
/**
 * A harness cell's modelled µs (split-K as the harness ran it), once per process; cuBLAS's depends
 * on neither the sparsity nor the split-K.
 */
function harnessModelUs(kernel: SpmmKernel, m: number, k: number, sparsity: number, splitK: number): number {
  const key = kernel === 'dense' ? `dense ${m} ${k}` : `${kernel} ${m} ${k} ${sparsity} ${splitK}`;
  const known = harnessTimes.get(key);
  if (known !== undefined) return known;
  const timing = modelH200Cell(kernel, m, k, sparsity, { splitK });
  harnessTimes.set(key, timing.timeNs / 1000);
  return timing.timeNs / 1000;
}

/**
 * Rows no cell is modelled at: gridK.txt's M 3072 (96 blocks of one per SM; no other file has it).
 * Its two shapes' cells would add ≈ 80 s of CPU to every run of the suite for one more grid size
 * between those the files hold; gpu/probes/README.md ("Twenty-sixth batch") has their model figures.
 */
const UNMODELLED_ROWS = 3072;

/**
 * Every harness cell of `HARNESS_FILES` but the calibration table's, in file order: silicon's time
 * is the median of the cell's runs (Flash-LLM's first run at 2048 × 7168 took 89.25 µs, its two
 * later ones 40.81 and 39.74). cuBLAS's kernel depends on neither the sparsity nor the split-K the
 * harness gives the paper's kernels, so its time at a shape is the median of all its runs there (one
 * run moves it by up to ±10 % at most shapes; 14336 × 4096's two differ by 17 %, and at 1024 and 2048
 * rows the runs span up to 29 %). Every cell has silicon's winner: it is the medians'.
 */
export function harnessCells(): CellComparison[] {
  const runs = HARNESS_FILES.flatMap((file) => harnessRuns(file)).filter((run) => run.m !== UNMODELLED_ROWS);
  const cells = new Map<string, HarnessRun[]>();
  for (const run of runs.filter((r) => !isCalibrationCell(r))) {
    const key = `${run.m} ${run.k} ${run.sparsity} ${run.splitK}`;
    cells.set(key, [...(cells.get(key) ?? []), run]);
  }
  return [...cells.values()].flatMap((cellRuns) => {
    const { m, k, sparsity, splitK } = cellRuns[0]!;
    const cublas = median(runs.filter((r) => r.m === m && r.k === k).map((r) => r.us[HARNESS_LABELS.dense]!));
    const dense = harnessModelUs('dense', m, k, sparsity, splitK);
    const cell = { m, k, sparsity, splitK, runs: cellRuns.length };
    return [
      { ...cell, kernel: 'dense' as const, modelUs: dense, siliconUs: cublas },
      ...PAPER_KERNELS.map((kernel) => {
        const modelUs = harnessModelUs(kernel, m, k, sparsity, splitK);
        const siliconUs = median(cellRuns.map((r) => r.us[HARNESS_LABELS[kernel]]!));
        const ratios = { model: dense / modelUs, silicon: cublas / siliconUs };
        return { ...cell, kernel, modelUs, siliconUs, ratios, siliconWins: ratios.silicon > 1 };
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
  const time = `${cellName(cell)}: ${cell.modelUs.toFixed(1)} µs against ${cell.siliconUs.toFixed(2)} (${percentError(cell.modelUs / cell.siliconUs)})`;
  if (!cell.ratios) return time;
  const { model, silicon } = cell.ratios;
  const undecided = cell.siliconWins === undefined ? "; silicon's runs disagree on the winner" : '';
  return `${time}, ${model.toFixed(2)}× cuBLAS against ${silicon.toFixed(2)}× (${percentError(model / silicon)})${undecided}`;
}

/** A cell's name in reports and in the known misses: shape, sparsity, split-K where not 8, kernel. */
export function cellName(cell: CellComparison): string {
  const split = cell.splitK === 8 ? '' : ` split-K ${cell.splitK}`;
  return `${cell.m} × ${cell.k} ${cell.sparsity}${split} ${cell.kernel}`;
}
