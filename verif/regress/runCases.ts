import fc from 'fast-check';
import type { IrDesign } from '../../hw/ir/ir.ts';
import type { Engine } from '../../hw/contract/engine.ts';
import { caseSeed } from './cases.ts';
import { caseFailures, firstFailure, type Mismatch } from './compare.ts';
import type { RegressSuite } from './suite.ts';
import type { CoverageCollector } from './coverage/collect.ts';
import { sampleStreams } from './coverage/sample.ts';

/** What happened to case k of a run. */
export interface CaseOutcome {
  readonly index: number;
  /** The case's own fast-check seed, derived from (run seed, k). */
  readonly seed: number;
  readonly mismatch?: Mismatch;
}

const DEFAULT_BATCH = 200;

/** The value of case k: the first value fast-check draws for the case's seed (as `fc.check` with that seed does). */
export function drawCase(suite: RegressSuite, seed: number): unknown {
  return fc.sample(suite.arbitrary, { seed, numRuns: 1 })[0];
}

/** Runs one case value on an engine and compares it with the golden outputs. */
export async function checkCase(suite: RegressSuite, engine: Engine, value: unknown): Promise<Mismatch | undefined> {
  const [mismatch] = await caseFailures(engine, suite.design(value), [suite.vectors(value)]);
  return mismatch;
}

/**
 * Runs cases `indices` of a run with `seed` on one engine. Cases that share a design go in
 * batches through `runMany`, so an external engine starts one process per batch on one build.
 * With `coverage`, every named signal is sampled too (verif/regress/coverage/sample.ts) and each
 * case is added to the collector.
 */
export async function runCases(
  suite: RegressSuite,
  engine: Engine,
  seed: number,
  indices: readonly number[],
  onDone: (count: number) => void = () => {},
  coverage?: CoverageCollector,
): Promise<CaseOutcome[]> {
  const byDesign = new Map<IrDesign, { index: number; seed: number; value: unknown }[]>();
  for (const index of indices) {
    const seedOfCase = caseSeed(seed, index);
    const value = drawCase(suite, seedOfCase);
    const design = suite.design(value);
    if (!byDesign.has(design)) byDesign.set(design, []);
    byDesign.get(design)!.push({ index, seed: seedOfCase, value });
  }
  const outcomes: CaseOutcome[] = [];
  const batchSize = suite.batchSize ?? DEFAULT_BATCH;
  for (const [design, cases] of byDesign)
    for (let start = 0; start < cases.length; start += batchSize) {
      const batch = cases.slice(start, start + batchSize);
      const vectors = batch.map(({ value }) => suite.vectors(value));
      const streams = vectors.map(({ stimulus }) => stimulus);
      // With coverage every run's signals are needed; otherwise the engine compares with golden itself.
      const samples = coverage ? await sampleStreams(engine, design, streams) : undefined;
      const failures = samples ? undefined : await caseFailures(engine, design, vectors);
      batch.forEach(({ index, seed: seedOfCase, value }, member) => {
        if (samples) coverage!.add(index, design, value, streams[member]!, samples[member]!);
        const mismatch = samples ? firstFailure(samples[member]!, vectors[member]!.expected) : failures![member];
        outcomes.push({ index, seed: seedOfCase, ...(mismatch ? { mismatch } : {}) });
      });
      onDone(batch.length);
    }
  return outcomes.sort((a, b) => a.index - b.index);
}
