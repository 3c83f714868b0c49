import type { CycleRun, Engine, OutputVerdict, PortValues } from '../../hw/contract/engine.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';
import { expectedFrames } from '../../engines/outputCompare.ts';
import type { CaseVectors } from './suite.ts';
import { formatCheckFailure, type CheckFailure } from '../../hw/contract/checks.ts';
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
  return earlierFailure(firstMismatch(run.outputs, expected), run.checks?.failures[0], expected.length);
}

/** The check failure when it comes no later than the mismatch (and within the golden cycles), else the mismatch. */
function earlierFailure(
  mismatch: Mismatch | undefined,
  check: CheckFailure | undefined,
  cycles: number,
): Mismatch | undefined {
  if (check && check.cycle < cycles && (!mismatch || check.cycle <= mismatch.cycle))
    return { cycle: check.cycle, ports: [], check };
  return mismatch;
}

/**
 * Runs cases on one design and gives each its first failure, as firstFailure gives it from the
 * run's outputs, but compared inside the engine (Engine.compare: Verilator's harness checks the
 * golden outputs in C++ and sends back only the first mismatching cycle's ports). Golden vectors
 * longer than their stimulus (a suite's mistake, reported as missing outputs) take the run path.
 */
export async function caseFailures(
  engine: Engine,
  design: IrDesign,
  vectors: readonly CaseVectors[],
): Promise<(Mismatch | undefined)[]> {
  if (vectors.some(({ stimulus, expected }) => expected.length > stimulus.length)) {
    const runs = await engine.runMany(
      design,
      vectors.map(({ stimulus }) => stimulus),
      { checks: 'count' },
    );
    return runs.map((run, index) => firstFailure(run, vectors[index]!.expected));
  }
  const verdicts = await engine.compare(
    design,
    vectors.map(({ stimulus, expected }) => ({
      inputs: stimulus,
      expected: expectedFrames(
        design,
        expected.length === stimulus.length
          ? expected
          : [...expected, ...stimulus.slice(expected.length).map(() => ({}))],
      ),
    })),
    // Every port of one cycle fits, so the first mismatching cycle is listed whole.
    { checks: 'count', mismatches: harnessPortsOf(design).outputs.length },
  );
  return verdicts.map((verdict, index) => verdictFailure(verdict, vectors[index]!.expected));
}

/** firstFailure of a compare's verdict: its first mismatching cycle, ports in the golden row's order, or an earlier check. */
export function verdictFailure(verdict: OutputVerdict, expected: readonly PortValues[]): Mismatch | undefined {
  const first = verdict.mismatches[0];
  let mismatch: Mismatch | undefined;
  if (first) {
    const order = Object.keys(expected[first.cycle] ?? {});
    const ports = verdict.mismatches
      .filter((each) => each.cycle === first.cycle)
      .sort((a, b) => order.indexOf(a.port) - order.indexOf(b.port))
      .map(({ port, expected: value, actual }) => ({ port, expected: value, actual }));
    mismatch = { cycle: first.cycle, ports };
  }
  return earlierFailure(mismatch, verdict.checks?.failures[0], expected.length);
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
