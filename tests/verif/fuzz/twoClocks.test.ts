import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../../engines/icarus/icarusEngine.ts';
import { compareEngines, disagreeingMember, serializeFuzzCase } from '../../../verif/fuzz/differential.ts';
import { twoClockCaseArbitrary, twoClockDesign, twoClockStimulus } from '../../../verif/fuzz/twoClocks.ts';
import { fastCheckSeed } from '../../support/seed.ts';

/**
 * The differential fuzz with two clocks: random designs in two domains (asynchronous and
 * synchronous resets, random periods and phases, resets pulsed at random steps, a synchronized
 * crossing between neighbours) through the in-process simulator, Verilator and Icarus, step for
 * step, their cover points and assertions reported alike. One batch of designs per run (one
 * Verilator build); a disagreement prints the member it shows in, whole.
 */
const seed = fastCheckSeed('two-clock-fuzz');
const MEMBERS = Number(process.env['FUZZ_TWO_CLOCK_MEMBERS'] ?? 24);

describe('differential fuzz with two clocks', () => {
  it(`${MEMBERS} random designs in two clock domains agree on all three engines`, async () => {
    const [fuzzCase] = fc.sample(twoClockCaseArbitrary(MEMBERS), { seed, numRuns: 1 });
    const design = twoClockDesign(fuzzCase!);
    const disagreement = await compareEngines(
      design,
      twoClockStimulus(fuzzCase!),
      [new TsEngine(), new VerilatorEngine(), new IcarusEngine()],
      { clocks: fuzzCase!.timings },
    );
    const show = (value: unknown): string =>
      JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? `0x${item.toString(16)}` : item));
    // The member it shows up in, whole (the other members only feed it one synchronized bit).
    const member = disagreement && disagreeingMember(disagreement);
    const memberCase =
      member === undefined ? '' : `; member ${member}: ${serializeFuzzCase(fuzzCase!.members[member]!)}`;
    expect(
      disagreement &&
        `${show(disagreement)} (timings ${show(fuzzCase!.timings)}${memberCase}; replay: FC_SEED=${seed})`,
    ).toBeUndefined();
  }, 600_000);
});
