import { randomLayouts } from './sparseLayout.ts';
import { sampleFactor } from './sweep.ts';
import type { MmaCycles } from './tensorCoreCycles.ts';
import { modelKernel } from './timingModel.ts';
import type { SpmmKernel } from './kernels.ts';

/**
 * Tokens per second of LLM decode from the SpMM model: one decode step of a batch of N sequences
 * runs every weight projection of every layer once as an M×K by K×N product, so its time is the
 * sum of the modeled kernel times, and tokens/s = N / step time. Only the projections are
 * modeled (attention over the KV cache, norms, sampling and launch gaps between layers are not),
 * so the figures are upper bounds and the sparse kernels' gains are those of the projections;
 * the paper's end-to-end numbers include the rest.
 */

/** A model's projections per layer: [name, out features M, in features K, count per layer]. */
export interface DecodeModel {
  readonly name: string;
  readonly layers: number;
  readonly projections: readonly (readonly [name: string, m: number, k: number])[];
  /** Projections that stay dense whatever the kernel (the LM head: not pruned). */
  readonly denseProjections: readonly (readonly [name: string, m: number, k: number])[];
}

/** Llama-2-7B: 32 layers, hidden 4096, MLP 11008, vocabulary 32000 (Touvron et al. 2023, Table 1 / the released config). */
export const LLAMA2_7B: DecodeModel = {
  name: 'llama2-7b',
  layers: 32,
  projections: [
    ['q_proj', 4096, 4096],
    ['k_proj', 4096, 4096],
    ['v_proj', 4096, 4096],
    ['o_proj', 4096, 4096],
    ['gate_proj', 11008, 4096],
    ['up_proj', 11008, 4096],
    ['down_proj', 4096, 11008],
  ],
  denseProjections: [['lm_head', 32000, 4096]],
};

/** One decode configuration's result. */
export interface DecodeResult {
  readonly profile: string;
  readonly kernel: SpmmKernel;
  readonly n: number;
  readonly sparsity: number;
  /** Time of one decode step (all projections of all layers + LM head), µs. */
  readonly stepUs: number;
  readonly tokensPerSecond: number;
}

/** Decode tokens/s of `model` on `profile` for each kernel and N (sampled SpMM runs, 6 block-iterations per SM at least). */
export function decodeThroughput(
  profile: string,
  model: DecodeModel,
  kernels: readonly SpmmKernel[],
  nValues: readonly number[],
  sparsity: number,
  mma: MmaCycles,
  seed = 1,
  onRun?: (done: number, total: number) => void,
): DecodeResult[] {
  const shapes = [
    ...new Map([...model.projections, ...model.denseProjections].map(([, m, k]) => [`${m}x${k}`, { m, k }])).values(),
  ];
  const layouts = new Map(shapes.map(({ m, k }) => [`${m}x${k}`, randomLayouts(m, k, [0, sparsity], seed)]));
  const cache = new Map<string, number>();
  const total = kernels.length * nValues.length * shapes.length;
  let done = 0;
  const timeOf = (kernel: SpmmKernel, m: number, k: number, n: number): number => {
    const key = `${kernel}|${m}x${k}|${n}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const layout = layouts.get(`${m}x${k}`)![kernel === 'dense' ? 0 : 1]!;
    const timing = modelKernel({
      profile,
      kernel,
      shape: { m, k, n },
      layout,
      mma,
      sample: sampleFactor(kernel, layout, n, 300_000),
      // A decode step reads every other projection of every layer before this one again: gigabytes
      // between its turns, so the L2 keeps none of it, whatever the profile's measurements rotated.
      rotatingCopies: 0,
    });
    cache.set(key, timing.timeNs);
    onRun?.(++done, total);
    return timing.timeNs;
  };
  const results: DecodeResult[] = [];
  for (const kernel of kernels) {
    for (const n of nValues) {
      const layerNs = model.projections.reduce((sum, [, m, k]) => sum + timeOf(kernel, m, k, n), 0);
      const headNs = model.denseProjections.reduce((sum, [, m, k]) => sum + timeOf('dense', m, k, n), 0);
      const stepNs = model.layers * layerNs + headNs;
      results.push({ profile, kernel, n, sparsity, stepUs: stepNs / 1000, tokensPerSecond: (n * 1e9) / stepNs });
    }
  }
  return results;
}

/** The results as a Markdown table: tokens/s per N, each kernel, and the sparse kernels' gain over dense. */
export function decodeTable(results: readonly DecodeResult[]): string {
  const ns = [...new Set(results.map((r) => r.n))].sort((a, b) => a - b);
  const of = (kernel: SpmmKernel, n: number): DecodeResult | undefined =>
    results.find((r) => r.kernel === kernel && r.n === n);
  const rows = [
    '| N | dense tokens/s | Coruscant kernel tokens/s | STC tokens/s | kernel gain | STC gain |',
    '|---|---|---|---|---|---|',
  ];
  for (const n of ns) {
    const d = of('dense', n)?.tokensPerSecond ?? NaN;
    const c = of('coruscant', n)?.tokensPerSecond ?? NaN;
    const s = of('stc', n)?.tokensPerSecond ?? NaN;
    const gain = (x: number): string =>
      Number.isFinite(x / d) ? `${x / d >= 1 ? '+' : ''}${((x / d - 1) * 100).toFixed(0)} %` : '–';
    const rate = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : '–');
    rows.push(`| ${n} | ${rate(d)} | ${rate(c)} | ${rate(s)} | ${gain(c)} | ${gain(s)} |`);
  }
  return `${rows.join('\n')}\n`;
}
