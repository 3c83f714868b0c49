/**
 * Former mutation survivors, each answered: the Fp32Adder mutant that dropped ∞ − ∞ = NaN is now
 * killed by the suite's special-pair stimulus, and the AdderChain mutant that ignores bit 1 of
 * rank_1 is told apart from the block alone but proved equal inside the thread slice, where the
 * lane detector never gives a rank above the slot number. The mutants are written as text edits of
 * the emitted Verilog (the same edits Yosys `mutate` made), so they do not depend on cell numbering.
 */
import { describe, expect, it } from 'vitest';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { AdderChain, BitmapThreadSlice } from '../../../coruscant/designs/decoder/index.ts';
import { Fp32Adder } from '../../../coruscant/designs/fp/fp32Adder.ts';
import { shardCases, WHOLE } from '../../../verif/regress/cases.ts';
import { MutantEngine } from '../../../verif/regress/mutation/mutantEngine.ts';
import { proveEquivalent } from '../../../verif/regress/mutation/yosysMutants.ts';
import { runCases } from '../../../verif/regress/runCases.ts';
import { REGRESS_SUITES } from '../../support/regressSuites.ts';

/** The single Verilog file of a one-module block, edited by `edit`, which must change it. */
function mutate(files: ReadonlyMap<string, string>, file: string, edit: (text: string) => string): string {
  const original = files.get(file)!;
  const mutated = edit(original);
  expect(mutated).not.toBe(original);
  return mutated;
}

describe('former mutation survivors', () => {
  it('Fp32Adder without the ∞ − ∞ term of align_nan is killed by the suite', async () => {
    const suite = REGRESS_SUITES.find((candidate) => candidate.name === 'Fp32Adder')!;
    const files = emitVerilog(elaborate(Fp32Adder));
    // `align_nan = (a NaN | b NaN) | (∞ and ∞ of opposite signs)`: keep only the NaN operands.
    const verilog = mutate(files, 'Fp32Adder.v', (text) =>
      text.replace(/^(\s*assign align_nan = )(.*) \| \(\([^;]*\);/m, '$1$2;'),
    );
    const outcomes = await runCases(suite, new MutantEngine(verilog), 1, shardCases(1000, WHOLE));
    const killer = outcomes.find((outcome) => outcome.mismatch);
    // The golden sum is the canonical NaN, the mutant's an infinity.
    expect(
      killer?.mismatch?.ports.map(({ port, expected, actual }) => [
        port,
        expected,
        actual === 0x7f800000n || actual === 0xff800000n,
      ]),
    ).toEqual([['s', 0x7fc00000n, true]]);
  }, 60_000);

  it('AdderChain ignoring bit 1 of rank_1 differs alone and is proved equal inside BitmapThreadSlice', async () => {
    const block = { files: emitVerilog(elaborate(AdderChain)), top: 'AdderChain' };
    const slice = emitVerilog(elaborate(BitmapThreadSlice));
    const verilog = mutate(block.files, 'AdderChain.v', (text) =>
      text.replace(/\{5'd0, rank_1\}/, "{5'd0, 1'b0, rank_1[0]}"),
    );
    const mutant = { id: 0, command: 'rank_1 bit 1 forced to 0', verilog };
    const alone = await proveEquivalent(block, mutant, true);
    expect(alone.verdict).toBe('different');
    expect(alone.counterexample).toMatch(/rank_1=[23]/);
    const inside = await proveEquivalent(block, mutant, true, { files: slice, top: 'BitmapThreadSlice' });
    expect(['proved', 'bounded']).toContain(inside.verdict);
  }, 60_000);
});
