/**
 * The regression runner compares cases inside the engine (caseFailures over Engine.compare); its
 * failures must be exactly those firstFailure finds in the runs' outputs: the same cycle, the same
 * ports in the same order, the same values — so a failure's message, shrinking and folder are
 * unchanged. Checked on the planted-bug suite, whose cases fail on some chunks and pass on others.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { availableEngines, createEngine } from '../../../engines/index.ts';
import type { EngineName } from '../../../hw/contract/engine.ts';
import { caseFailures, describeMismatch, firstFailure } from '../../../verif/regress/compare.ts';
import { suites } from './fixtures/plantedBug.ts';
import { fastCheckSeed } from '../../support/seed.ts';

const seed = fastCheckSeed('caseFailures');
const suite = suites[0]!;
const engines = (['ts', 'verilator', 'icarus'] as const).filter((name) => availableEngines().available.includes(name));

describe.each(engines)('%s: failures compared in the engine', (name: EngineName) => {
  it('are the failures of the runs compared here, message for message', async () => {
    const engine = await createEngine(name);
    const cases = fc.sample(suite.arbitrary, { seed, numRuns: 30 });
    const design = suite.design(cases[0]);
    const vectors = cases.map((value) => suite.vectors(value));
    const inEngine = await caseFailures(engine, design, vectors);
    const runs = await engine.runMany(
      design,
      vectors.map(({ stimulus }) => stimulus),
      { checks: 'count' },
    );
    const here = runs.map((run, index) => firstFailure(run, vectors[index]!.expected));
    expect(inEngine).toEqual(here);
    // The planted chunk shows up in some of 30 random cases, not in all.
    expect(here.filter(Boolean).length).toBeGreaterThan(0);
    expect(here.filter(Boolean).length).toBeLessThan(30);
    expect(inEngine.filter(Boolean).map((mismatch) => describeMismatch(mismatch!))[0]).toMatch(
      /^cycle \d+: count = 0x[0-9a-f]+, golden 0x[0-9a-f]+/,
    );
  });
});
