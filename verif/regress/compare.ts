import type { CycleRun, PortValues } from '../../engines/engine.ts';
import { formatCheckFailure, type CheckFailure } from '../../hw/ir/checks.ts';
import { formatVectorValue } from '../../engines/vectors.ts';

/** One output that differs from the golden model. */
export interface PortMismatch {
  readonly port: string;
  readonly expected: bigint;
  readonly actual: bigint | undefined;
}

/** The first cycle where an engine's outputs differ from the golden ones, and every port that differs then. */
export interface Mismatch {
  readonly cycle: number;
  readonly ports: readonly PortMismatch[];
  /** A failing assertion (or assumption) of the design: a failure even where the outputs agree. */
  readonly check?: CheckFailure;
}

/**
 * The earlier of the run's first failing assertion and its first output mismatch (the assertion
 * when both are in one cycle): what a regression reports, shrinks and saves a waveform of.
 */
export function firstFailure(run: CycleRun, expected: readonly PortValues[]): Mismatch | undefined {
  const mismatch = firstMismatch(run.outputs, expected);
  const check = run.checks?.failures[0];
  if (check && check.cycle < expected.length && (!mismatch || check.cycle <= mismatch.cycle))
    return { cycle: check.cycle, ports: [], check };
  return mismatch;
}

/** Compares only the ports the golden model predicts in each cycle (see CaseVectors). */
export function firstMismatch(actual: readonly PortValues[], expected: readonly PortValues[]): Mismatch | undefined {
  for (let cycle = 0; cycle < expected.length; cycle++) {
    const got = actual[cycle] ?? {};
    const ports = Object.entries(expected[cycle]!)
      .filter(([port, value]) => got[port] !== value)
      .map(([port, value]) => ({ port, expected: value, actual: got[port] }));
    if (ports.length > 0) return { cycle, ports };
  }
  return undefined;
}

/** `cycle 3: count = 0x2, golden 0x3; …` (the first few ports). */
export function describeMismatch(mismatch: Mismatch): string {
  if (mismatch.check) return formatCheckFailure(mismatch.check);
  const shown = mismatch.ports
    .slice(0, 4)
    .map(
      ({ port, expected, actual }) =>
        `${port} = ${actual === undefined ? 'missing' : formatVectorValue(actual)}, golden ${formatVectorValue(expected)}`,
    );
  const more = mismatch.ports.length > 4 ? ` (+${mismatch.ports.length - 4} more ports)` : '';
  return `cycle ${mismatch.cycle}: ${shown.join('; ')}${more}`;
}
