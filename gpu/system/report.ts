import { KERNEL_TITLES, type SpmmKernel } from './kernels.ts';
import type { SweepResult } from './sweep.ts';
import type { KernelTiming } from './timingModel.ts';

/** Text and Markdown views of model results. */

const us = (ns: number): string => (ns / 1000).toFixed(1);
const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

/** One kernel run as a short report, one fact per line. */
export function formatKernelTiming(t: KernelTiming): string {
  const it = t.perIteration;
  const lines = [
    `kernel             ${KERNEL_TITLES[t.kernel]}`,
    `problem            ${t.profile}, A ${t.shape.m}×${t.shape.k} at ${(100 * t.sparsity).toFixed(1)} % sparsity, N = ${t.shape.n}`,
    `time               ${us(t.timeNs)} µs, bound by ${t.bound}`,
    `grid               ${t.blocks} blocks (split-K ${t.splitK}), ${t.residentBlocksPerSm} resident per SM`,
    `stages             memory ${us(t.stagesNs.memory)} µs (+ last tile ${us(t.stagesNs.epilogue)}) | SM compute ${us(t.stagesNs.compute)} µs (${t.stagesNs.prologue > 0 ? `+ first load ${us(t.stagesNs.prologue)}` : "its blocks' start and end included"}) | split-K reduction ${us(t.stagesNs.reduction)} µs`,
    `per block-iter     issue ${it.issue.toFixed(0)} cy (decompression ${it.decompressIssue.toFixed(0)} per warp), shared memory ${it.sharedMemory.toFixed(0)} cy, tensor core ${it.tensorCore.toFixed(0)} cy, L1 lines ${it.l1Lines.toFixed(0)} cy, chain ${it.chain.toFixed(0)} cy (loads ${it.loadWait.toFixed(0)}, of which lines ${it.lineWait.toFixed(0)}; L1 queue ${it.l1Queue.toFixed(0)}; decompression ${it.decompressChain.toFixed(0)}) → ${it.effective.toFixed(0)} cy`,
    `A stored           ${mb(t.bytes.aStored)} MB; requested ${mb(t.bytes.aSectorRequests)} MB in sectors; DRAM read ${mb(t.bytes.dramRead)} MB (A and B)${t.weightsInL2 > 0 ? `; the L2 keeps ${(100 * t.weightsInL2).toFixed(0)} % of A between its copy's turns (its round trips an L2 hit's; the memory path reads it cold)` : ''}`,
    `memory path        L1 hits ${(100 * t.memory.l1.hitRate).toFixed(1)} %, L2 hits ${(100 * t.memory.l2.hitRate).toFixed(1)} %, DRAM row hits ${(100 * t.memory.dram.rowHitRate).toFixed(1)} %`,
    `simulated          ${t.sampling.channels} of ${t.sampling.of} DRAM channels, ${(100 * t.simulatedFraction).toFixed(1)} % of the sector requests (${t.memory.sectorRequests})` +
      (t.sampling.requested > 1
        ? `; sampled channels ${(100 * t.sampling.spread).toFixed(1)} % apart${t.sampling.fellBack ? ', so all simulated' : ''}`
        : ''),
  ];
  return `${lines.join('\n')}\n`;
}

const target = (t: KernelTiming): number => Math.round(t.sparsity * 100);

/** The comparison table: per shape and sparsity, each kernel's time and speedups over dense and Flash-LLM. */
export function comparisonTable(runs: readonly KernelTiming[]): string {
  const header =
    '| shape | sparsity | dense µs | Flash-LLM µs | Coruscant µs | STC µs | Coruscant / dense | Coruscant / Flash-LLM | STC / dense | STC / Coruscant | bound (dense, Flash-LLM, Coruscant, STC) |';
  const rows = [header, `|${'---|'.repeat(11)}`];
  const keys = [...new Set(runs.map((r) => `${r.shape.m}×${r.shape.k}|${target(r)}`))];
  for (const key of keys) {
    const group = runs.filter((r) => `${r.shape.m}×${r.shape.k}|${target(r)}` === key);
    const of = (kernel: SpmmKernel): KernelTiming | undefined => group.find((r) => r.kernel === kernel);
    const time = (kernel: SpmmKernel): number => of(kernel)?.timeNs ?? NaN;
    const ratio = (a: SpmmKernel, b: SpmmKernel): string =>
      Number.isFinite(time(a) / time(b)) ? `${(time(b) / time(a)).toFixed(2)}×` : '–';
    const [shape, sparsity] = key.split('|');
    rows.push(
      `| ${shape} | ${sparsity} % | ${us(time('dense'))} | ${us(time('flashllm'))} | ${us(time('coruscant'))} | ${us(time('stc'))} | ${ratio('coruscant', 'dense')} | ${ratio('coruscant', 'flashllm')} | ${ratio('stc', 'dense')} | ${ratio('stc', 'coruscant')} | ${(['dense', 'flashllm', 'coruscant', 'stc'] as const).map((k) => of(k)?.bound ?? '–').join(', ')} |`,
    );
  }
  return `${rows.join('\n')}\n`;
}

/** The sweep's summary: the RTL measurement, the table, and the timing. */
export function formatSweep(result: SweepResult): string {
  const { mma, numerics } = result;
  return [
    `profile ${result.profile}; tensor core: ${mma.periodCycles} cycles per MMA + ${mma.latencyCycles} latency (${mma.source}; documented ${mma.documentedLatencyCycles})`,
    `numerics: ${numerics.mmas} sampled 32×64 tiles as MMAs on the RTL MmaUnit vs golden: ${numerics.mismatches === 0 ? 'all equal' : `${numerics.mismatches} MISMATCHES (${numerics.firstMismatch ?? ''})`}`,
    '',
    comparisonTable(result.runs),
    `${result.runs.length + result.nRuns.length} kernel runs in ${result.seconds.toFixed(1)} s`,
    '',
  ].join('\n');
}
