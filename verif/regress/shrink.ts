import fc from 'fast-check';
import type { Engine } from '../../hw/contract/engine.ts';
import type { Mismatch } from './compare.ts';
import { checkCase } from './runCases.ts';
import type { RegressSuite } from './suite.ts';

/** A failing case reduced by fast-check, with the path that replays it from the case's seed. */
export interface ShrunkCase {
  readonly value: unknown;
  /** fast-check's counterexample path ("0:2:1"): with the case's seed, it regenerates `value`. */
  readonly path: string;
  readonly mismatch: Mismatch;
  readonly shrinks: number;
  /** Shrinking hit its time limit; `value` is the smallest failing case found by then. */
  readonly interrupted: boolean;
}

/**
 * Shrinks case `seed` of a suite on the engine that failed it (each step is a run on that
 * engine), for at most `timeLimitMs`. Undefined if the case passes this time.
 */
export async function shrinkCase(
  suite: RegressSuite,
  engine: Engine,
  seed: number,
  timeLimitMs: number,
): Promise<ShrunkCase | undefined> {
  let lastMismatch: Mismatch | undefined;
  const details = await fc.check(
    fc.asyncProperty(suite.arbitrary, async (value) => {
      const mismatch = await checkCase(suite, engine, value);
      if (mismatch) lastMismatch = mismatch;
      return mismatch === undefined;
    }),
    { seed, numRuns: 1, interruptAfterTimeLimit: timeLimitMs },
  );
  if (!details.failed || details.counterexample === null || details.counterexamplePath === null || !lastMismatch)
    return undefined;
  return {
    value: details.counterexample[0],
    path: details.counterexamplePath,
    mismatch: lastMismatch,
    shrinks: details.numShrinks,
    interrupted: details.interrupted,
  };
}

/** The case at a fast-check path from a seed: what `shrinkCase` found, regenerated exactly. */
export function caseAtPath(suite: RegressSuite, seed: number, path: string): unknown {
  let found: { value: unknown } | undefined;
  fc.check(
    fc.property(suite.arbitrary, (value) => {
      found = { value };
      return false;
    }),
    { seed, path, numRuns: 1, endOnFailure: true },
  );
  if (!found) throw new Error(`no case at path ${path} of seed ${seed}`);
  return found.value;
}
