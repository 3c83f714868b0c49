/**
 * The software kernel's Algorithm 1 step, measured by blocks per SM (the h200 compute profile's
 * `algorithm1StepCycles`): the figures are the source page's loop span (gpu/probes/stallGrowth.py
 * --per FLO, results/2026-12-05c/algorithm1Steps.txt: one, two and three blocks per SM on the H200),
 * and with them the kernel is within 10 % of the harness with one block per SM and with two
 * (`mixes`, results/2026-12-05/mixes.txt: K 7168, split-K 8, 50 %, M 4096 and 8448). With the
 * assumed 86 cycles a step it was +22 % and +12 %.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeProfile } from '../../../gpu/system/computeProfiles.ts';
import { ALGORITHM1_STEP_CYCLES } from '../../../gpu/system/kernelCosts.ts';
import { mixesMedianUs, modelH200Cell, PROBE_RESULTS } from './support.ts';

const K = 7168;

describe('Algorithm 1 by blocks per SM (h200)', () => {
  it("is the source page's loop span with one, two and three blocks per SM; the other profiles keep the assumed chain", () => {
    const lines = readFileSync(join(PROBE_RESULTS, '2026-12-05c/algorithm1Steps.txt'), 'utf8').trim().split('\n');
    // Per M, the span that runs most steps is the K loop's (the other is the first tile's).
    const loopStep = (m: number) => {
      const spans = lines
        .map((line) => line.match(/^SpMM_Kernel M (\d+): .*, (\d+) executed, .*, ([\d.]+) cycles per FLO$/))
        .filter((match) => match !== null && Number(match[1]) === m)
        .map((match) => ({ executed: Number(match![2]), cycles: Number(match![3]) }));
      return spans.sort((a, b) => b.executed - a.executed)[0]!.cycles;
    };
    expect(computeProfile('h200').algorithm1StepCycles).toEqual([loopStep(4096), loopStep(8448), loopStep(12544)]);
    expect(Math.max(...computeProfile('h200').algorithm1StepCycles!)).toBeLessThan(ALGORITHM1_STEP_CYCLES);
    for (const profile of ['rtx6000ada', 'rtx4090'])
      expect(computeProfile(profile).algorithm1StepCycles).toBeUndefined();
  });

  it.each([
    [4096, 'one block per SM'],
    [8448, 'two blocks per SM'],
  ])(
    'puts the software kernel at M %i (%s) within 10 % of the harness',
    (m) => {
      const timing = modelH200Cell('coruscant', m, K, 0.5);
      expect(Math.abs(timing.timeNs / 1000 / mixesMedianUs('Coruscant', m) - 1)).toBeLessThan(0.1);
    },
    120_000,
  );
});
