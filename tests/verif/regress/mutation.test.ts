/**
 * Mutation scoring on the smallest block: Yosys mutants of LaneDetector run through its suite on
 * Icarus; the SAT miter proves the block equal to itself and a killed mutant different.
 */
import { describe, expect, it } from 'vitest';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { LaneDetector } from '../../../coruscant/designs/decoder/index.ts';
import { scoreSuite } from '../../../verif/regress/mutation/mutationRun.ts';
import { makeMutants, proveEquivalent } from '../../../verif/regress/mutation/yosysMutants.ts';
import { REGRESS_SUITES } from '../../support/regressSuites.ts';

const suite = REGRESS_SUITES.find((candidate) => candidate.name === 'LaneDetector')!;

describe('mutation score', () => {
  it('kills LaneDetector mutants with its suite and accounts for every mutant', async () => {
    const [score] = await scoreSuite(suite, { runs: 60, seed: 3, mutants: 4 });
    expect(score!.mutants).toBe(4);
    expect(Object.values(score!.counts).reduce((sum, count) => sum + count, 0)).toBe(4);
    expect(score!.counts.killed).toBeGreaterThan(0);
    expect(score!.score).toBeCloseTo(
      score!.counts.killed /
        (4 - score!.counts.equivalent - score!.counts['equivalent-bounded'] - score!.counts.invalid),
    );
    expect(
      score!.results
        .filter((result) => result.status === 'killed')
        .every((result) => /killed by case \d+/.test(result.detail ?? '')),
    ).toBe(true);
  }, 120_000);

  it('the miter proves the block equal to itself and an inverted output different, with its counterexample', async () => {
    const files = emitVerilog(elaborate(LaneDetector));
    const block = { files, top: 'LaneDetector' };
    const [mutant] = await makeMutants(files, 'LaneDetector', 1, 1);
    const itself = { id: -1, command: 'none', verilog: [...files.values()].join('\n') };
    expect((await proveEquivalent(block, itself, false)).verdict).toBe('proved');
    const inverted = {
      id: -2,
      command: 'inverted count',
      verilog: itself.verilog.replace(/assign count = ([^;]+);/, 'assign count = ~($1);'),
    };
    expect(inverted.verilog).not.toBe(itself.verilog);
    const different = await proveEquivalent(block, inverted, false);
    expect(different.verdict).toBe('different');
    // Any input tells an inverted count apart: the counterexample is the one input port.
    expect(different.counterexample).toMatch(/^bits=[0-9a-f]+$/);
    expect(mutant!.command).toMatch(/^mutate -mode \w+ -module LaneDetector /);
  }, 120_000);

  it('scores the mutants of a block with assertions and m.past registers (StreamFifo): none is invalid', async () => {
    // Yosys drops the check blocks and the registers only they read; the testbench must not zero those.
    const fifo = REGRESS_SUITES.find((candidate) => candidate.name === 'StreamFifo_depth3')!;
    const [score] = await scoreSuite(fifo, { runs: 10, seed: 1, mutants: 2 });
    // Mutant 1 of SkidBuffer (seed 1) inverts out_data's register, which Yosys then writes under another name.
    const [skid] = await scoreSuite(
      REGRESS_SUITES.find((candidate) => candidate.name === 'SkidBuffer')!,
      {
        runs: 30,
        seed: 1,
        mutants: 5,
      },
    );
    expect(skid!.counts.invalid).toBe(0);
    expect(score!.results.map((result) => [result.status, result.detail ?? ''])).not.toContainEqual([
      'invalid',
      expect.anything(),
    ]);
    expect(score!.counts.invalid).toBe(0);
    expect(score!.counts.killed + score!.counts.survived + score!.counts.equivalent).toBeGreaterThan(0);
  }, 180_000);
});
