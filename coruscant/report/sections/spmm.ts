import { KERNEL_TITLES, SPMM_KERNELS, type SpmmKernel } from '../../../gpu/system/kernels.ts';
import { sweepFigures } from '../../../gpu/system/figures.ts';
import { runSweep, type SweepOptions } from '../../../gpu/system/sweep.ts';
import type { KernelTiming } from '../../../gpu/system/timingModel.ts';
import { escapeHtml, figureHtml, ShownNumbers, tableHtml } from '../html.ts';
import type { ReportSection, SectionContext, SectionResult } from '../../../api/plugin.ts';

const PROFILE = 'rtx6000ada';
const N = 8;
const SEED = 1;

/** The paper's claimed speedups of the Coruscant STC over cuBLAS (docs/spec.md §7). */
const PAPER_SPEEDUP: Readonly<Record<string, number>> = { '0.5': 1.5, '0.6': 1.72, '0.7': 2.02 };

/** The sweep: OPT-30B and OPT-66B shapes at 30–70 % (--quick: OPT-66B at 50 and 70 %, fewer simulated sectors). */
function sweepOptions(context: SectionContext): Omit<SweepOptions, 'onRun'> {
  return context.quick
    ? { profile: PROFILE, shapes: [{ m: 9216, k: 9216 }], sparsities: [0.5, 0.7], n: N, nValues: [], seed: SEED, sectorBudget: 10_000 }
    : { profile: PROFILE, shapes: [{ m: 7168, k: 7168 }, { m: 9216, k: 9216 }], sparsities: [0.3, 0.4, 0.5, 0.6, 0.7], n: N, nValues: [8, 32, 128, 256], nSweepSparsity: 0.5, seed: SEED, sectorBudget: 100_000 };
}

const sparsityOf = (run: KernelTiming): number => Math.round(run.sparsity * 100) / 100;
/** A shape-at-sparsity group's key in summary.json, e.g. `9216x9216.s50`. */
const groupKey = (run: KernelTiming): string => `${run.shape.m}x${run.shape.k}.s${Math.round(sparsityOf(run) * 100)}`;

/** What bounds each kernel run, for summary.json's `strings`: `spmm.<shape>.s<sparsity>.<kernel>Bound`. */
function boundStrings(runs: readonly KernelTiming[], profile: string): Record<string, string> {
  return Object.fromEntries([['spmm.profile', profile], ...runs.map((run) => [`spmm.${groupKey(run)}.${run.kernel}Bound`, run.bound])]);
}

/**
 * The opening summary's line for the GPU profile the sweep ran on: at each shape and sparsity,
 * the STC's speedup over dense with what bounds the STC run and the dense one.
 */
function findingOf(groups: readonly (readonly KernelTiming[])[], profile: string, shown: ShownNumbers): string {
  const items = groups.map((runs) => {
    const first = runs[0]!;
    const key = groupKey(first);
    const run = (kernel: SpmmKernel): KernelTiming | undefined => runs.find((candidate) => candidate.kernel === kernel);
    const speedup = shown.show(`${key}.stcOverDense`, run('dense')!.timeNs / run('stc')!.timeNs, { digits: 2 });
    const paper = PAPER_SPEEDUP[String(sparsityOf(first))];
    const paperText = paper === undefined ? '' : `paper ${shown.show(`paper.s${Math.round(sparsityOf(first) * 100)}`, paper, { digits: 2 })}×; `;
    return `${speedup}× at ${Math.round(sparsityOf(first) * 100)} % on ${first.shape.m}×${first.shape.k} (${paperText}bound: STC by ${escapeHtml(run('stc')?.bound ?? '?')}, dense by ${escapeHtml(run('dense')?.bound ?? '?')})`;
  });
  return `SpMM on <code>${escapeHtml(profile)}</code> (model, N = ${shown.show('n', N, 'integer')}): the Coruscant STC over dense ${items.join(', ')}.`;
}

/** One table row: a shape at a sparsity, each kernel's modeled time and the speedups. */
function rowOf(runs: readonly KernelTiming[], shown: ShownNumbers): string[] {
  const first = runs[0]!;
  const key = groupKey(first);
  const time = (kernel: SpmmKernel): number => runs.find((run) => run.kernel === kernel)?.timeNs ?? NaN;
  const paper = PAPER_SPEEDUP[String(sparsityOf(first))];
  return [
    `${first.shape.m}×${first.shape.k}`,
    `${Math.round(sparsityOf(first) * 100)} %`,
    ...SPMM_KERNELS.map((kernel) => shown.show(`${key}.${kernel}Us`, time(kernel) / 1000, { digits: 1 })),
    `${shown.show(`${key}.stcOverDense`, time('dense') / time('stc'), { digits: 2 })}×${paper === undefined ? '' : ` <small>(paper ≤ ${shown.show(`paper.s${Math.round(sparsityOf(first) * 100)}`, paper, { digits: 2 })}×)</small>`}`,
    `${shown.show(`${key}.stcOverCoruscant`, time('coruscant') / time('stc'), { digits: 2 })}×`,
    `${shown.show(`${key}.coruscantOverFlashllm`, time('flashllm') / time('coruscant'), { digits: 2 })}×`,
    escapeHtml(SPMM_KERNELS.map((kernel) => runs.find((run) => run.kernel === kernel)?.bound ?? '?').join(', ')),
  ];
}

/**
 * The SpMM system model (docs/spec.md §7): dense, Flash-LLM, the Coruscant software kernel and the
 * Coruscant STC on the modeled GPU memory path, with the tensor core's cycles and sampled tiles'
 * numerics taken from the RTL; the paper-style figures and the speedups next to the paper's claims.
 */
export const spmmSection: ReportSection = {
  id: 'spmm',
  title: 'SpMM on the modeled GPU (paper Fig. 16, 17, 23, 24)',
  reproduce: (context) => {
    const options = sweepOptions(context);
    return [
      `npx gen memsim --sweep --profile ${options.profile} --shapes ${options.shapes.map((shape) => `${shape.m}x${shape.k}`).join(',')} --sparsities ${options.sparsities.join(',')} ` +
        `-n ${options.n} --n-values '${(options.nValues ?? []).join(',')}' --sector-budget ${options.sectorBudget} --seed ${options.seed} --out out/system-sweep`,
    ];
  },
  run: async (context): Promise<SectionResult> => {
    const result = await runSweep(sweepOptions(context));
    const shown = new ShownNumbers('spmm');
    const groups = new Map<string, KernelTiming[]>();
    for (const run of result.runs) {
      const key = `${run.shape.m}x${run.shape.k}@${sparsityOf(run)}`;
      groups.set(key, [...(groups.get(key) ?? []), run]);
    }
    const rows = [...groups.values()].map((runs) => rowOf(runs, shown));
    const figures = sweepFigures(result);
    const speedupOf = (runs: readonly KernelTiming[]): number => (runs.find((run) => run.kernel === 'dense')?.timeNs ?? NaN) / (runs.find((run) => run.kernel === 'stc')?.timeNs ?? NaN);
    const bestRuns = [...groups.values()].reduce((best, runs) => (speedupOf(runs) > speedupOf(best) ? runs : best));
    const best = speedupOf(bestRuns);
    const bestBound = bestRuns.find((run) => run.kernel === 'stc')?.bound ?? '?';
    const html = [
      `<p>Modeled time of one SpMM (A the pruned weights, N = ${shown.show('n', N, 'integer')}, decode) on the <code>${escapeHtml(result.profile)}</code> profile's memory path (L1, L2 slices, DRAM banks), ` +
        `for ${escapeHtml(SPMM_KERNELS.map((kernel) => KERNEL_TITLES[kernel]).join('; '))}. The tensor core's timing is measured on the RTL MmaUnit ` +
        `(${shown.show('mmaPeriodCycles', result.mma.periodCycles, 'integer')} cycles per MMA, ${shown.show('mmaLatencyCycles', result.mma.latencyCycles, 'integer')} cycle latency), ` +
        `and ${shown.show('numericsMmas', result.numerics.mmas, 'integer')} sampled tiles run as MMAs on the RTL equal the golden model ` +
        `(<span class="${result.numerics.mismatches === 0 ? 'pass' : 'fail'}">${shown.show('numericsMismatches', result.numerics.mismatches, 'integer')} mismatching outputs</span>). ` +
        `The paper claims up to 1.50/1.72/2.02× over cuBLAS at 50/60/70 % and ~1.3× for the STC over the software kernel. ` +
        "The model follows each warp's dependency chain (two dependent load round trips for the bitmap format, Algorithm 1's clz → shift → and-not chain) and the SM's occupancy: " +
        'with one 66 KB block per SM on this GPU nothing hides a block\'s decompression, which is what the STC removes; the bound column names the resource that limits each run.</p>',
      tableHtml(['shape', 'sparsity', ...SPMM_KERNELS.map((kernel) => `${kernel} µs`), 'STC / dense', 'STC / Coruscant kernel', 'Coruscant kernel / Flash-LLM', 'bound (dense, Flash-LLM, Coruscant, STC)'], rows, 'numeric'),
      ...Object.entries(figures).map(([name, svg]) => figureHtml(`spmm-${name.replace(/\.svg$/, '')}`, svg, name)),
    ].join('\n');
    const findings = [findingOf([...groups.values()], result.profile, shown)];
    return {
      numbers: shown.values,
      strings: boundStrings(result.runs, result.profile),
      findings,
      html,
      files: new Map(Object.entries(figures).map(([name, svg]) => [`figures/spmm-${name}`, svg])),
      headline: `STC up to ${best.toFixed(2)}× over dense (model, ${result.profile}, N = ${N}; bound there by ${bestBound}); RTL tiles ${result.numerics.mismatches === 0 ? 'equal golden' : 'DIFFER from golden'}`,
      ...(result.numerics.mismatches > 0 ? { failed: `sampled tiles on the RTL differ from golden: ${result.numerics.firstMismatch ?? ''}` } : {}),
    };
  },
};
