import { barChartSvg, lineChartSvg } from '../../common/charts.ts';
import { SPMM_KERNELS, type SpmmKernel } from './kernels.ts';
import type { SweepResult } from './sweep.ts';
import type { KernelTiming } from './timingModel.ts';

/** Paper-style figures of a sweep, as SVG text keyed by file name. */

/** Short enough for the chart legend (KERNEL_TITLES spells them out). */
const KERNEL_NAMES: Readonly<Record<SpmmKernel, string>> = {
  dense: 'dense',
  flashllm: 'Flash-LLM',
  coruscant: 'Coruscant',
  stc: 'Coruscant STC',
};
const percent = (s: number): string => `${Math.round(100 * s)} %`;
const shapeName = (run: KernelTiming): string => `${run.shape.m}×${run.shape.k}`;
const kernelsIn = (runs: readonly KernelTiming[]): SpmmKernel[] =>
  SPMM_KERNELS.filter((k) => runs.some((r) => r.kernel === k));

function byShape(runs: readonly KernelTiming[]): Map<string, KernelTiming[]> {
  const groups = new Map<string, KernelTiming[]>();
  for (const run of runs) groups.set(shapeName(run), [...(groups.get(shapeName(run)) ?? []), run]);
  return groups;
}

/** Target sparsity of a run, to the nearest percent (the measured one differs by sampling noise). */
const targetOf = (run: KernelTiming): number => Math.round(run.sparsity * 100) / 100;

/** Every figure of the sweep. */
export function sweepFigures(result: SweepResult): Record<string, string> {
  const figures: Record<string, string> = {};
  for (const [shape, runs] of byShape(result.runs)) {
    const sparsities = [...new Set(runs.map(targetOf))].sort((a, b) => a - b);
    const kernels = kernelsIn(runs);
    const find = (kernel: SpmmKernel, s: number): KernelTiming | undefined =>
      runs.find((r) => r.kernel === kernel && targetOf(r) === s);
    const file = shape.replace('×', 'x');
    figures[`latency-${file}.svg`] = lineChartSvg({
      title: `SpMM latency, ${shape}, N = ${runs[0]!.shape.n}, ${result.profile} (model; cf. paper Fig. 16)`,
      xLabel: 'sparsity',
      yLabel: 'latency (µs)',
      yIncludes: [0],
      formatX: percent,
      series: kernels.map((kernel) => ({
        name: KERNEL_NAMES[kernel],
        points: sparsities.map((s) => ({ x: s, y: (find(kernel, s)?.timeNs ?? NaN) / 1000 })),
      })),
    });
    figures[`bytes-${file}.svg`] = barChartSvg({
      title: `Bytes read from DRAM (A and B), ${shape} (model; cf. paper Fig. 17)`,
      yLabel: 'MB',
      xLabel: 'sparsity',
      categories: sparsities.map(percent),
      series: kernels.map((kernel) => ({
        name: KERNEL_NAMES[kernel],
        values: sparsities.map((s) => (find(kernel, s)?.bytes.dramRead ?? NaN) / 1e6),
      })),
    });
    figures[`pcie-offload-${file}.svg`] = barChartSvg({
      title: `Offloaded weights over PCIe (${result.pcieGBps} GB/s), ${shape} (cf. paper Fig. 23)`,
      yLabel: 'transfer time (µs)',
      xLabel: 'sparsity',
      categories: sparsities.map(percent),
      series: kernels
        .filter((kernel) => kernel !== 'stc')
        .map((kernel) => ({
          name: `${KERNEL_NAMES[kernel]} format`,
          values: sparsities.map((s) => (find(kernel, s)?.bytes.aStored ?? NaN) / (result.pcieGBps * 1000)),
        })),
    });
  }
  if (result.nRuns.length > 0) {
    const ns = [...new Set(result.nRuns.map((r) => r.shape.n))].sort((a, b) => a - b);
    const time = (kernel: SpmmKernel, n: number): number =>
      result.nRuns.find((r) => r.kernel === kernel && r.shape.n === n)?.timeNs ?? NaN;
    const first = result.nRuns[0]!;
    figures['speedup-vs-n.svg'] = lineChartSvg({
      title: `Speedup over dense vs N, ${shapeName(first)} at ${percent(targetOf(first))}, ${result.profile} (cf. paper Fig. 24b)`,
      xLabel: 'N (batch)',
      xScale: 'log',
      yLabel: 'speedup over dense',
      yIncludes: [0],
      referenceLines: [{ y: 1, label: 'dense' }],
      series: kernelsIn(result.nRuns)
        .filter((kernel) => kernel !== 'dense')
        .map((kernel) => ({
          name: KERNEL_NAMES[kernel],
          points: ns.map((n) => ({ x: n, y: time('dense', n) / time(kernel, n) })),
        })),
    });
  }
  return figures;
}
