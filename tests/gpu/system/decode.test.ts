/** Decode tokens/s (gpu/system/decode.ts): one step = every projection of every layer + the dense head, at N. */
import { describe, expect, it } from 'vitest';
import { decodeTable, decodeThroughput, LLAMA2_7B, type DecodeModel } from '../../../gpu/system/decode.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { sampleFactor } from '../../../gpu/system/sweep.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import { MEASURED_MMA } from './support.ts';

const tiny: DecodeModel = {
  name: 'tiny',
  layers: 3,
  projections: [
    ['a', 512, 512],
    ['b', 768, 512],
  ],
  denseProjections: [['head', 256, 512]],
};

describe('decode throughput', () => {
  it('a step is layers × the projections + the dense head; tokens/s = N / step', () => {
    const [result] = decodeThroughput('rtx6000ada', tiny, ['stc'], [4], 0.5, MEASURED_MMA);
    const time = (kernel: 'stc' | 'dense', m: number, k: number): number => {
      const layout = randomLayouts(m, k, [0, 0.5], 1)[kernel === 'dense' ? 0 : 1]!;
      return modelKernel({
        profile: 'rtx6000ada',
        kernel,
        shape: { m, k, n: 4 },
        layout,
        mma: MEASURED_MMA,
        sample: sampleFactor(kernel, layout, 4, 300_000),
      }).timeNs;
    };
    const stepNs = 3 * (time('stc', 512, 512) + time('stc', 768, 512)) + time('dense', 256, 512);
    expect(result!.stepUs).toBeCloseTo(stepNs / 1000, 6);
    expect(result!.tokensPerSecond).toBeCloseTo(4e9 / stepNs, 6);
  });

  it("has Llama-2-7B's shapes: 32 layers, 4096 hidden, 11008 MLP, ≈ 6.5 G projection weights", () => {
    const weights = LLAMA2_7B.layers * LLAMA2_7B.projections.reduce((sum, [, m, k]) => sum + m * k, 0);
    expect(weights).toBe(32 * (4 * 4096 * 4096 + 3 * 11008 * 4096));
    expect(
      decodeTable([{ profile: 'x', kernel: 'dense', n: 1, sparsity: 0.5, stepUs: 10, tokensPerSecond: 100 }]),
    ).toMatch(/^\| 1 \| 100 \| – \| – \| – \| – \|$/m);
  });
});
