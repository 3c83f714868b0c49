/** The sweep runs each kernel once per (shape, sparsity), except dense: once per shape. */
import { describe, expect, it, vi } from 'vitest';
import * as timingModel from '../../../gpu/system/timingModel.ts';
import { runSweep, sampleFactor } from '../../../gpu/system/sweep.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';

vi.mock('../../../gpu/system/timingModel.ts', async (original) => {
  const actual = await original<typeof timingModel>();
  return { ...actual, modelKernel: vi.fn(actual.modelKernel) };
});

describe('runSweep', () => {
  it('models dense once per shape and gives every sparsity the run a fresh dense model gives', async () => {
    const shape = { m: 1024, k: 1024 };
    const sparsities = [0.3, 0.7];
    const options = {
      profile: 'h200',
      shapes: [shape],
      sparsities,
      n: 8,
      kernels: ['dense', 'coruscant'] as const,
      seed: 3,
      sectorBudget: 20_000,
    };
    const calls = vi.mocked(timingModel.modelKernel);
    calls.mockClear();
    const result = await runSweep(options);
    const modelled = calls.mock.calls.map(([input]) => input.kernel);
    expect(modelled.filter((kernel) => kernel === 'dense')).toHaveLength(1);
    expect(modelled.filter((kernel) => kernel === 'coruscant')).toHaveLength(2);

    const dense = result.runs.filter((run) => run.kernel === 'dense');
    expect(dense.map((run) => Math.round(run.sparsity * 10) / 10)).toEqual(sparsities);
    // The shared run is the run dense gets at the second sparsity's own layout.
    const layout = randomLayouts(shape.m, shape.k, sparsities, options.seed)[1]!;
    const fresh = timingModel.modelKernel({
      profile: 'h200',
      kernel: 'dense',
      shape: { ...shape, n: 8 },
      layout,
      mma: result.mma,
      sample: sampleFactor('dense', layout, 8, options.sectorBudget),
    });
    expect(dense[1]!.timeNs).toBe(fresh.timeNs);
    expect(dense[1]!.bytes).toEqual(fresh.bytes);
  }, 60_000);
});
