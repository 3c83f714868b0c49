import type { PortValues } from '../../engines/engine.ts';
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
  const shown = mismatch.ports
    .slice(0, 4)
    .map(
      ({ port, expected, actual }) =>
        `${port} = ${actual === undefined ? 'missing' : formatVectorValue(actual)}, golden ${formatVectorValue(expected)}`,
    );
  const more = mismatch.ports.length > 4 ? ` (+${mismatch.ports.length - 4} more ports)` : '';
  return `cycle ${mismatch.cycle}: ${shown.join('; ')}${more}`;
}
