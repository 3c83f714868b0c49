import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SpmmKernel } from '../../../gpu/system/kernels.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
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

/**
 * One H200 cell as the silicon harness ran it (N = 8; the paper's kernels at split-K 8, the dense
 * kernel at its own), sampled as the sweep samples it.
 */
export function modelH200Cell(kernel: SpmmKernel, m: number, k: number, sparsity: number): KernelTiming {
  const layout = randomLayouts(m, k, [sparsity], 1)[0]!;
  return modelKernel({
    profile: 'h200',
    kernel,
    shape: { m, k, n: 8 },
    layout,
    mma: MEASURED_MMA,
    ...(kernel === 'dense' ? {} : { splitK: 8 }),
    sample: sampleFactor(kernel, layout, 8, 300_000),
  });
}

/** The probes' committed results (gpu/probes/results). */
export const PROBE_RESULTS = join(import.meta.dirname, '../../../gpu/probes/results');

/**
 * The harness's median time at M over the three `mixes` rounds (results/2026-12-05/mixes.txt: K
 * 7168, split-K 8, 50 %, on the H200), µs, for the kernel as the harness labels it
 * ('FlashLLM', 'Coruscant', …). Throws when the file has not exactly three rounds at M.
 */
export function mixesMedianUs(label: string, m: number): number {
  const text = readFileSync(join(PROBE_RESULTS, '2026-12-05/mixes.txt'), 'utf8');
  const row = new RegExp(
    `== round \\d+ M (\\d+) [^\\n]*\\n(?:[^=\\n][^\\n]*\\n)*?${label} +\\t -> \\t\\t Time\\/ms: ([\\d.]+)`,
    'g',
  );
  const times = [...text.matchAll(row)]
    .filter((match) => Number(match[1]) === m)
    .map((match) => 1000 * Number(match[2]))
    .sort((a, b) => a - b);
  if (times.length !== 3) throw new Error(`mixes.txt: ${times.length} rounds of ${label} at M ${m}, expected 3`);
  return times[1]!;
}
