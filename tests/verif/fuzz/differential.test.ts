import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { TsEngine } from '../../../verif/engines/ts.ts';
import { VerilatorEngine } from '../../../verif/engines/verilator.ts';
import { IcarusEngine } from '../../../verif/engines/icarus.ts';
import { batchDesign, caseDesign, caseStimulus, compareEngines, fuzzCaseArbitrary, saveFailure, type FuzzCase } from '../../../verif/fuzz/differential.ts';
import { fastCheckSeed } from '../../support/seed.ts';

/**
 * Differential fuzzing of the framework itself: random designs (every operator, widths 1–80,
 * registers, sub-module instances) with random stimulus through the in-process simulator,
 * Verilator and Icarus, compared cycle by cycle. Cases run in batches under one top, so
 * 200 designs cost two Verilator builds. A failing batch is narrowed to its first failing case,
 * which fast-check then shrinks against the engines that disagreed.
 */
const seed = fastCheckSeed('differential-fuzz');
const BATCHES = Number(process.env['FUZZ_BATCHES'] ?? 2);
const CASES_PER_BATCH = Number(process.env['FUZZ_CASES_PER_BATCH'] ?? 100);
const replay = `FC_SEED=${seed} npx vitest run tests/verif/fuzz/differential.test.ts`;

describe('differential fuzz: in-process simulator = Verilator = Icarus', () => {
  const engines = [new TsEngine(), new VerilatorEngine(), new IcarusEngine()];
  const cases = fc.sample(fuzzCaseArbitrary, { seed, numRuns: BATCHES * CASES_PER_BATCH });

  it.each(Array.from({ length: BATCHES }, (_, batch) => batch))(`batch %i of ${CASES_PER_BATCH} random designs agrees cycle for cycle`, async (batch) => {
    const members = cases.slice(batch * CASES_PER_BATCH, (batch + 1) * CASES_PER_BATCH);
    const { design, stimulus } = batchDesign(members, `FuzzBatch${batch}`);
    const disagreement = await compareEngines(design, stimulus, engines);
    if (!disagreement) return;
    const member = Number(/^f(\d+)_/.exec(disagreement.port)?.[1] ?? 0);
    const caseIndex = batch * CASES_PER_BATCH + member;
    const folder = saveFailure(join('build', 'fuzz-failures', `seed-${seed}-case-${caseIndex}`), members[member]!, disagreement, replay);
    // Shrink the failing case: fast-check replays the same draws up to it, then minimizes it.
    const disagreeing = engines.filter((engine) => disagreement.values[engine.name] !== disagreement.values['ts'] || engine.name === 'ts');
    await fc.assert(
      fc.asyncProperty(fuzzCaseArbitrary, async (fuzzCase: FuzzCase) => {
        expect(await compareEngines(caseDesign(fuzzCase), caseStimulus(fuzzCase[0], fuzzCase[1]), disagreeing)).toBeUndefined();
      }),
      { seed, numRuns: caseIndex + 1, interruptAfterTimeLimit: 180_000, markInterruptAsFailure: true },
    );
    throw new Error(`case ${caseIndex} disagrees (${JSON.stringify(disagreement, (_, value) => (typeof value === 'bigint' ? `0x${value.toString(16)}` : value))}) but did not fail alone; saved in ${folder}; replay: ${replay}`);
  }, 600_000);
});
