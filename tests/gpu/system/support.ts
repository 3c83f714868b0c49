import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeProfile } from '../../../gpu/system/computeProfiles.ts';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { randomLayouts, type SparseWeightLayout } from '../../../gpu/system/sparseLayout.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import type { MmaCycles } from '../../../gpu/system/tensorCoreCycles.ts';
import { modelKernel, type KernelTiming } from '../../../gpu/system/timingModel.ts';

/** MmaUnit's cycle counts as measured in tensorCoreCycles.test.ts, so model tests need not re-run the RTL. */
export const MEASURED_MMA: MmaCycles = {
  periodCycles: 16,
  latencyCycles: 1,
  documentedLatencyCycles: 1,
  pipelined: 0,
  source: 'tests (see tensorCoreCycles.test.ts)',
};

let lastLayout: { readonly key: string; readonly layout: SparseWeightLayout } | undefined;
/**
 * The seed-1 random layout of a shape and sparsity, kept until another is asked for: a cell's four
 * kernels come one after another and share it, and drawing 4096 × 28672 takes half a second.
 */
export function cellLayout(m: number, k: number, sparsity: number): SparseWeightLayout {
  const key = `${m} ${k} ${sparsity}`;
  if (lastLayout?.key !== key) lastLayout = { key, layout: randomLayouts(m, k, [sparsity], 1)[0]! };
  return lastLayout.layout;
}

/**
 * One H200 cell as the silicon harness ran it (N = 8; the paper's kernels at split-K 8 unless
 * given, the dense kernel at its own), sampled as the sweep samples it, on `cellLayout` unless
 * given a layout.
 */
export function modelH200Cell(
  kernel: SpmmKernel,
  m: number,
  k: number,
  sparsity: number,
  { splitK = 8, layout = cellLayout(m, k, sparsity) }: { splitK?: number; layout?: SparseWeightLayout } = {},
): KernelTiming {
  return modelKernel({
    profile: 'h200',
    kernel,
    shape: { m, k, n: 8 },
    layout,
    mma: MEASURED_MMA,
    ...(kernel === 'dense' ? {} : { splitK }),
    sample: sampleFactor(kernel, layout, 8, 300_000),
  });
}

/**
 * The model's iteration of a lone block (one per SM; M / 256 × 8 blocks at M × 7168, split-K 8,
 * 50 %) on the h200 profile: its SM time less a block's start and end, over its 14 iterations, the
 * share of the weights the L2 kept, and the whole timing. `rotatingCopies` replaces the profile's
 * harness rotation (0: cold, as Nsight Compute and the marked kernels with sixteen copies read);
 * absent, the cell is modelled as the harness ran it (modelH200Cell).
 */
export function loneBlockIteration(
  kernel: SpmmKernel,
  m: number,
  rotatingCopies?: number,
): { cycles: number; kept: number; timing: KernelTiming } {
  const k = 7168;
  const timing =
    rotatingCopies === undefined
      ? modelH200Cell(kernel, m, k, 0.5)
      : modelKernel({
          profile: 'h200',
          kernel,
          shape: { m, k, n: 8 },
          layout: cellLayout(m, k, 0.5),
          mma: MEASURED_MMA,
          splitK: 8,
          rotatingCopies,
        });
  const iterations = k / 64 / 8;
  if (timing.blocks !== (m / 256) * 8) throw new Error(`M ${m}: ${timing.blocks} blocks, not one per SM`);
  const h200 = computeProfile('h200');
  const cycles = (timing.stagesNs.compute * h200.tensorClockMHz!) / 1000 - h200.blockStartEndCycles!;
  return { cycles: cycles / iterations, kept: timing.weightsInL2, timing };
}

/** The probes' committed results (gpu/probes/results). */
export const PROBE_RESULTS = join(import.meta.dirname, '../../../gpu/probes/results');

/** The JSON records of a batch's file (results/RUN/FILE): its lines that open with `{`, each parsed. */
export function probeRecords<T = Record<string, number | string>>(run: string, file: string): T[] {
  return readFileSync(join(PROBE_RESULTS, run, file), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as T);
}

/** One launch set of the paper's harness (`spmm_perf`) as a batch step wrote it: its shape and each kernel's µs by label. */
export interface HarnessRun {
  readonly round?: number;
  readonly m: number;
  readonly k: number;
  readonly sparsity: number;
  readonly splitK: number;
  /** µs by the harness's label ('CuBlas_TC', 'FlashLLM', 'Coruscant', 'Coruscant_STC'). */
  readonly us: Readonly<Record<string, number>>;
}

/**
 * The harness's runs in a committed results file (`== [round R ]M m K k N 8 sparsity s split-K S`,
 * then a `Label -> Time/ms: t` line per kernel), in file order.
 */
export function harnessRuns(file: string): HarnessRun[] {
  const text = readFileSync(join(PROBE_RESULTS, file), 'utf8');
  const header = /^== (?:round (\d+) )?M (\d+) K (\d+) N \d+ sparsity (\d+) split-K (\d+)$/;
  const time = /^(\w+)\s+->\s+Time\/ms:\s+([\d.]+)/;
  const runs: { round?: number; m: number; k: number; sparsity: number; splitK: number; us: Record<string, number> }[] =
    [];
  for (const line of text.split('\n')) {
    const run = header.exec(line);
    if (run) {
      const [, round, m, k, sparsity, splitK] = run.map(Number);
      runs.push({ ...(run[1] ? { round } : {}), m: m!, k: k!, sparsity: sparsity! / 100, splitK: splitK!, us: {} });
      continue;
    }
    const kernel = time.exec(line);
    if (kernel && runs.length > 0) runs.at(-1)!.us[kernel[1]!] = 1000 * Number(kernel[2]);
  }
  // A run that printed no time (its step's time limit cut it after the header) is no run.
  return runs.filter((run) => Object.keys(run.us).length > 0);
}

/**
 * A marked kernel's iteration past the third (median SM cycles) as gpu/probes/iterationPhases.py
 * printed it into a committed phases file (`run/file`), for M × K (7168 unless given) at 50 % on
 * the SMs that held `perSm` blocks; `build` picks one build's lines in a file that holds several
 * under `== build` headers (copiesPhases.txt). Throws, naming the file, when the line is not there.
 */
export function phasesIteration(
  run: string,
  file: string,
  m: number,
  { perSm = 1, build, k = 7168 }: { perSm?: number; build?: string; k?: number } = {},
): number {
  const text = readFileSync(join(PROBE_RESULTS, run, file), 'utf8');
  const lines = build === undefined ? text : text.split(/^== /m).find((part) => part.startsWith(`${build}\n`));
  const found = lines?.match(new RegExp(`^${m}x${k}-50  ${perSm} per SM .* rest (\\d+) `, 'm'));
  if (!found) throw new Error(`${run}/${file}${build ? ` ${build}` : ''}: no M ${m} × ${k}, ${perSm} per SM`);
  return Number(found[1]);
}

/** The middle of some runs' times (the mean of the middle two for an even count): a single run twice the others' does not move it. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

/**
 * The median µs of the harness's label over a file's three rounds of one shape (split-K 8, 50 %
 * unless given). Throws when the file has not exactly three rounds of it.
 */
export function harnessMedianUs(file: string, label: string, m: number, k: number, sparsity = 0.5): number {
  const times = harnessRuns(file)
    .filter((run) => run.m === m && run.k === k && run.sparsity === sparsity && run.us[label] !== undefined)
    .map((run) => run.us[label]!);
  if (times.length !== 3) throw new Error(`${file}: ${times.length} rounds of ${label} at ${m} × ${k}, expected 3`);
  return median(times);
}

/**
 * The harness's median time at M over the three `mixes` rounds (results/2026-12-05/mixes.txt: K
 * 7168, split-K 8, 50 %, on the H200), µs, for the kernel as the harness labels it
 * ('FlashLLM', 'Coruscant', …).
 */
export function mixesMedianUs(label: string, m: number): number {
  return harnessMedianUs('2026-12-05/mixes.txt', label, m, 7168);
}
