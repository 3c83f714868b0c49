/**
 * The one-kernel report (`gen spmm --model`): its stages line names what the SM side's compute
 * holds — the measured blocks' start and end where the profile has them (h200), else the first
 * load's round trip beside it (rtx6000ada).
 */
import { describe, expect, it } from 'vitest';
import { formatKernelTiming } from '../../../gpu/system/report.ts';
import { randomLayouts } from '../../../gpu/system/sparseLayout.ts';
import { modelKernel } from '../../../gpu/system/timingModel.ts';
import { MEASURED_MMA } from './support.ts';

const shape = { m: 1024, k: 1024, n: 8 };
const [layout] = randomLayouts(shape.m, shape.k, [0.5], 1);
const report = (profile: string): string =>
  formatKernelTiming(modelKernel({ profile, kernel: 'stc', shape, layout: layout!, mma: MEASURED_MMA, splitK: 4 }));

describe('formatKernelTiming', () => {
  it("h200: the SM side's compute includes the blocks' measured start and end, with no separate first load", () => {
    const text = report('h200');
    expect(text).toMatch(/^stages .*SM compute \d+\.\d µs \(its blocks' start and end included\)/m);
    expect(text).not.toContain('first load');
  });

  it('rtx6000ada: the first load beside the compute, in µs', () => {
    expect(report('rtx6000ada')).toMatch(/^stages .*SM compute \d+\.\d µs \(\+ first load 0\.\d\)/m);
  });

  it('one fact per line: kernel, problem, time and bound, grid, stages, per block-iteration, bytes, memory path, sampling', () => {
    const keys = report('h200')
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s{2,}/)[0]);
    expect(keys).toEqual([
      'kernel',
      'problem',
      'time',
      'grid',
      'stages',
      'per block-iter',
      'A stored',
      'memory path',
      'simulated',
    ]);
  });
});
