import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../../engines/icarus/icarusEngine.ts';
import {
  batchDesign,
  caseDesign,
  caseStimulus,
  compareEngines,
  disagreeingMember,
  checkedFuzzCaseArbitrary,
  saveFailure,
  type FuzzCase,
} from '../../../verif/fuzz/differential.ts';
import { fastCheckSeed } from '../../support/seed.ts';

/**
 * Differential fuzzing of the framework itself: random designs (every operator, widths 1–80,
 * registers, sub-module instances, nested when/elsewhen/otherwise chains with partial assignment,
 * memories with combinational and registered reads and writes under a when, interfaces: bundle-typed
 * wires, registers and sub-module ports with nested, flipped and vec-of-bundle fields joined with
 * `connect`) with random stimulus through the in-process simulator,
 * Verilator and Icarus, compared cycle by cycle. Cases run in batches under one top, so
 * 200 designs cost two Verilator builds. A failing batch is narrowed to its first failing case,
 * which fast-check then shrinks against the engines that disagreed.
 */
const seed = fastCheckSeed('differential-fuzz');
const BATCHES = Number(process.env['FUZZ_BATCHES'] ?? 2);
const CASES_PER_BATCH = Number(process.env['FUZZ_CASES_PER_BATCH'] ?? 100);
const replay = `FC_SEED=${seed} npx vitest run tests/verif/fuzz/differential.test.ts`;

/** A disagreement as one line, values in hex. */
function show(disagreement: unknown): string {
  return JSON.stringify(disagreement, (_, value: unknown) =>
    typeof value === 'bigint' ? `0x${value.toString(16)}` : value,
  );
}

describe('disagreeingMember', () => {
  it("finds a batch member in an output's port or a check's instance", () => {
    const at = (port: string) => disagreeingMember({ cycle: 0, port, values: {} });
    expect(at('f12_o0')).toBe(12);
    expect(at('assert member7.child0.a0 nonzero')).toBe(7);
    expect(at('cover member3.c1')).toBe(3);
    expect(at('cover c0')).toBeUndefined();
  });
});

describe('differential fuzz: in-process simulator = Verilator = Icarus', () => {
  const engines = [new TsEngine(), new VerilatorEngine(), new IcarusEngine()];
  const cases = fc.sample(checkedFuzzCaseArbitrary, { seed, numRuns: BATCHES * CASES_PER_BATCH });

  it.each(Array.from({ length: BATCHES }, (_, batch) => batch))(
    `batch %i of ${CASES_PER_BATCH} random designs agrees cycle for cycle`,
    async (batch) => {
      const members = cases.slice(batch * CASES_PER_BATCH, (batch + 1) * CASES_PER_BATCH);
      const { design, stimulus } = batchDesign(members, `FuzzBatch${batch}`);
      const disagreement = await compareEngines(design, stimulus, engines);
      if (!disagreement) return;
      const member = disagreeingMember(disagreement) ?? 0;
      const caseIndex = batch * CASES_PER_BATCH + member;
      const folder = saveFailure(
        join('build', 'fuzz-failures', `seed-${seed}-case-${caseIndex}`),
        members[member]!,
        disagreement,
        replay,
      );
      // Shrink the failing case: the path jumps straight to its draw (fc.sample and fc.check draw the
      // same cases for one seed), then fast-check minimizes it against the engines that disagreed.
      const disagreeing = engines.filter(
        (engine) => disagreement.values[engine.name] !== disagreement.values['ts'] || engine.name === 'ts',
      );
      const disagreementAlone = async (fuzzCase: FuzzCase) =>
        compareEngines(caseDesign(fuzzCase), caseStimulus(fuzzCase[0], fuzzCase[1]), disagreeing);
      const shrinking = await fc.check(
        fc.asyncProperty(
          checkedFuzzCaseArbitrary,
          async (fuzzCase: FuzzCase) => (await disagreementAlone(fuzzCase)) === undefined,
        ),
        { seed, path: String(caseIndex), interruptAfterTimeLimit: 240_000 },
      );
      const smallest = shrinking.counterexample?.[0];
      const smallestDisagreement = smallest && (await disagreementAlone(smallest));
      if (!smallest || !smallestDisagreement)
        throw new Error(
          `case ${caseIndex} disagrees (${show(disagreement)}) but did not fail alone; saved in ${folder}; replay: ${replay}`,
        );
      const shrunkFolder = saveFailure(`${folder}-shrunk`, smallest, smallestDisagreement, replay);
      throw new Error(
        `case ${caseIndex} disagrees: ${show(disagreement)}; saved in ${folder}, shrunk (${shrinking.numShrinks} steps) to ${shrunkFolder}: ${show(smallestDisagreement)}; replay: ${replay}`,
      );
    },
    600_000,
  );
});
