/**
 * Lanes run independent streams of one design in one model, and give exactly what one stream at a
 * time gives: the same output frames, the same check failures and cover counts per stream, the
 * same error in stop mode — on a regression suite's fixed-seed cases, the fuzz corpus, random fuzz
 * designs (memories included) with checks, and streams of uneven lengths, so lanes are refilled
 * and retired mid-run.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineModule, input, output } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import type { IrDesign } from '../../../hw/ir/ir.ts';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import type { CycleRun, PortValues } from '../../../hw/contract/engine.ts';
import { CheckFailedError, type CheckMode } from '../../../hw/contract/checks.ts';
import { decoderSuites } from '../../../coruscant/suites/decoder.ts';
import {
  batchDesign,
  checkedFuzzCaseArbitrary,
  fuzzCaseArbitrary,
  parseFuzzCase,
} from '../../../verif/fuzz/differential.ts';

const SEED = 29;
console.log(`lanes tests: fast-check seed ${SEED}`);

/** What a run gives that must not depend on lanes: every output word and the checks. */
const observed = (runs: readonly CycleRun[]) =>
  runs.map((run) => ({ words: Array.from(run.frames.words), checks: run.checks }));

/** Runs the streams one at a time, then in lanes of each given count; every lanes run must equal the first. */
async function expectSameInLanes(
  design: IrDesign,
  streams: readonly (readonly PortValues[])[],
  laneCounts: readonly number[],
  checks: CheckMode = 'count',
): Promise<void> {
  const alone = observed(await new TsEngine({ lanes: 1 }).runMany(design, streams, { checks }));
  for (const lanes of laneCounts)
    expect(observed(await new TsEngine({ lanes }).runMany(design, streams, { checks })), `${lanes} lanes`).toEqual(
      alone,
    );
}

/** Streams of uneven lengths from one stimulus: prefixes, some empty, so lanes finish at different cycles. */
const prefixes = (stimulus: readonly PortValues[], lengths: readonly number[]): PortValues[][] =>
  lengths.map((length) => stimulus.slice(0, Math.min(length, stimulus.length)));

describe('lanes ≡ one stream at a time', () => {
  it('the BitmapDecoder suite: fixed-seed cases give the same outputs in 1, 3 and 64 lanes', async () => {
    const suite = decoderSuites.find((each) => each.name === 'BitmapDecoder')!;
    const cases = fc.sample(suite.arbitrary, { seed: SEED, numRuns: 8 });
    const design = suite.design(cases[0]);
    await expectSameInLanes(
      design,
      cases.map((testCase) => suite.vectors(testCase).stimulus),
      [3, 64],
    );
  });

  it('the fuzz corpus, as one batch design, in streams of uneven lengths', async () => {
    const corpus = join(import.meta.dirname, '../../verif/fuzz/corpus');
    const cases = readdirSync(corpus)
      .filter((file) => file.endsWith('.json'))
      .sort()
      .map((file) => parseFuzzCase(readFileSync(join(corpus, file), 'utf8')));
    expect(cases.length).toBeGreaterThan(0);
    const { design, stimulus } = batchDesign(cases, 'LanesCorpus');
    await expectSameInLanes(design, prefixes(stimulus, [12, 0, 5, 12, 1, 9, 12, 3]), [2, 4, 8]);
  });

  it('random fuzz designs with memories and with checks (count mode): the same outputs, failures and covers', async () => {
    for (const [arbitrary, name] of [
      [fuzzCaseArbitrary, 'LanesFuzz'],
      [checkedFuzzCaseArbitrary, 'LanesChecked'],
    ] as const) {
      const { design, stimulus } = batchDesign(fc.sample(arbitrary, { seed: SEED, numRuns: 8 }), name);
      await expectSameInLanes(design, prefixes(stimulus, [12, 7, 12, 2, 11, 12]), [2, 5]);
    }
  });
});

/** A counter that an assertion forbids to reach `limit`; a cover counts the cycles it is odd. */
const Forbidden = defineModule({
  name: 'LanesForbidden',
  defaults: {},
  ports: () => ({ limit: input(4), count: output(4) }),
  build(m, io) {
    const count = m.reg('value', 4, { reset: 0 });
    count.set(count.add(1));
    io.count.set(count);
    m.assert(count.ne(io.limit), 'count must not reach the limit');
    m.cover(count.bit(0), 'odd');
  },
});

describe('a failing stream in lanes is reported as its own', () => {
  const design = elaborate(Forbidden, {});
  /** Stream k: `cycles` cycles with limit `limit` after a reset cycle. */
  const stream = (limit: number, cycles: number): PortValues[] =>
    Array.from({ length: cycles }, (_, cycle) => ({ reset: cycle === 0 ? 1n : 0n, limit: BigInt(limit) }));
  // Streams 1 and 3 reach their limits (cycles 4 and 2 after reset); the others never do.
  const streams = [stream(15, 10), stream(3, 10), stream(15, 6), stream(1, 10), stream(0, 3)];

  it('count mode: each stream has its own failures (cycle, values) and cover counts', async () => {
    const runs = await new TsEngine({ lanes: 4 }).runMany(design, streams, { checks: 'count' });
    expect(runs.map((run) => run.checks!.failures.map((failure) => failure.cycle))).toEqual([[], [4], [], [2], [1]]);
    expect(runs[1]!.checks!.failures[0]!.values).toMatchObject({ limit: 3n });
    expect(runs.map((run) => run.checks!.covers.odd)).toEqual([4, 4, 2, 4, 1]);
    await expectSameInLanes(design, streams, [2, 4]);
  });

  it('stop mode: the error is the first failing stream’s, as running them in turn throws', async () => {
    const error = await new TsEngine({ lanes: 4 }).runMany(design, streams).catch((caught: unknown) => caught);
    const alone = await new TsEngine({ lanes: 1 }).runMany(design, streams).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CheckFailedError);
    expect((error as CheckFailedError).message).toBe((alone as CheckFailedError).message);
    expect((error as CheckFailedError).message).toContain('cycle 4');
  });

  it('a stimulus that does not fit throws after the streams before it, as in turn', async () => {
    const bad = [stream(15, 4), [{ limit: 99n }]];
    const lanes = await new TsEngine({ lanes: 2 }).runMany(design, bad).catch((caught: unknown) => caught);
    const alone = await new TsEngine({ lanes: 1 }).runMany(design, bad).catch((caught: unknown) => caught);
    expect(String(lanes)).toBe(String(alone));
    expect(String(lanes)).toContain('limit');
  });
});
