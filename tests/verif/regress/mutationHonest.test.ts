/**
 * Mutation scores that cannot lie: a suite whose design depends on the case is scored per
 * parameter set (its mutants were all "invalid" and the block scored 100 %), designs with
 * initialized memories mutate (Yosys refused to write a mutated memory initialization), a
 * mutant's ROM keeps its contents, and a block whose mutants are all invalid fails the run.
 */
import { describe, expect, it } from 'vitest';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { MaskedRamRom } from '../../../hw/examples/maskedRamRom.ts';
import { UserError } from '../../../common/errors.ts';
import { shardCases, WHOLE } from '../../../verif/regress/cases.ts';
import { runCases } from '../../../verif/regress/runCases.ts';
import { MutantEngine } from '../../../verif/regress/mutation/mutantEngine.ts';
import { makeMutants } from '../../../verif/regress/mutation/yosysMutants.ts';
import { checkMutationScores, scoreSuite, type MutationScore } from '../../../verif/regress/mutation/mutationRun.ts';
import { REGRESS_SUITES } from '../../support/regressSuites.ts';
import { suites as parameterSuites } from './fixtures/parameterSuite.ts';

const memorySuite = REGRESS_SUITES.find((candidate) => candidate.name === 'MaskedRamRom')!;

describe('honest mutation scores', () => {
  it('scores a suite whose design depends on the case once per parameter set, with no invalid mutant', async () => {
    const scores = await scoreSuite(parameterSuites[0]!, { runs: 24, seed: 5, mutants: 3 });
    expect(scores.map((score) => score.top).sort()).toEqual(['AddStep', 'AddStep_step_3']);
    for (const score of scores) {
      expect(score.counts.invalid).toBe(0);
      expect(score.counts.killed).toBeGreaterThan(0);
      // Each parameter set runs only its own cases.
      expect(score.cases).toBeGreaterThan(0);
      expect(score.cases).toBeLessThan(24);
    }
    expect(scores.reduce((sum, score) => sum + score.cases, 0)).toBe(24);
  }, 120_000);

  it('mutates a design with initialized memories (a ROM and a RAM with initial words), and each mutant simulates', async () => {
    const mutants = await makeMutants(emitVerilog(elaborate(MaskedRamRom)), 'MaskedRamRom', 10, 1);
    expect(mutants).toHaveLength(10);
    // Each compiles and runs under the testbench (a ToolError here is what scoring counts as invalid).
    for (const mutant of mutants.slice(0, 3))
      await runCases(memorySuite, new MutantEngine(mutant.verilog), 1, shardCases(2, WHOLE));
  }, 60_000);

  it("a mutant's testbench keeps the initial contents of its memories (unmutated Verilog passes the suite)", async () => {
    const verilog = [...emitVerilog(elaborate(MaskedRamRom)).values()].join('\n');
    const outcomes = await runCases(memorySuite, new MutantEngine(verilog), 1, shardCases(6, WHOLE));
    expect(outcomes.filter((outcome) => outcome.mismatch).map((outcome) => outcome.index)).toEqual([]);
  }, 60_000);

  it('a block whose mutants are all invalid has no score and fails the run in one line', () => {
    const allInvalid: MutationScore = {
      suite: 'S',
      top: 'Top_p_1',
      cases: 10,
      mutants: 2,
      counts: { killed: 0, survived: 0, equivalent: 0, 'equivalent-bounded': 0, invalid: 2 },
      score: undefined,
      results: [],
    };
    expect(() => checkMutationScores([allInvalid])).toThrow(UserError);
    expect(() => checkMutationScores([allInvalid])).toThrow(/^Top_p_1: all 2 mutants are invalid/);
    expect(() =>
      checkMutationScores([{ ...allInvalid, counts: { ...allInvalid.counts, invalid: 1, killed: 1 }, score: 1 }]),
    ).not.toThrow();
  });
});
