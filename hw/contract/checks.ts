import { UserError } from '../../common/errors.ts';
import { formatLocation, type SourceLocation } from '../core/sourceLocation.ts';
import { placedModules, type IrCheck, type IrDesign } from '../ir/ir.ts';

/**
 * What every engine reports when an assertion (or assumption) fails: the cycle, the check's kind,
 * message and user location, the instance it is in, and the named signals its condition read, as
 * they were in that cycle (before the edge).
 */
export interface CheckFailure {
  readonly kind: IrCheck['kind'];
  readonly message: string;
  readonly location: SourceLocation;
  /** The cycle of the stream (0-based, the engine step contract's t). */
  readonly cycle: number;
  /** Instance path from the top (`a.b`), '' for the top module. */
  readonly scope: string;
  /** Module name and index of the check in that module's `checks`. */
  readonly module: string;
  readonly index: number;
  readonly values: Readonly<Record<string, bigint>>;
}

/** What to do when an assertion fails in simulation: stop the run (default), or count and go on. */
export type CheckMode = 'stop' | 'count';

/** Per stream: every failure (only the first when stopping) and each cover point's hit count. */
export interface CheckResults {
  readonly failures: readonly CheckFailure[];
  /** `scope.name` (or `name` in the top) of each cover point → cycles in which it held. */
  readonly covers: Readonly<Record<string, number>>;
}

/** A check of a design with where it sits: every instance of every module with checks, top first. */
export interface PlacedCheck {
  readonly check: IrCheck;
  readonly module: string;
  readonly index: number;
  readonly scope: string;
}

/** Every check of every instance, depth first from the top, in IR order within a module. */
export function placedChecks(design: IrDesign): PlacedCheck[] {
  return placedModules(design).flatMap(({ module, scope }) =>
    (module.checks ?? []).map((check, index) => ({ check, module: module.name, index, scope })),
  );
}

/** Whether any module of the design has an assertion, assumption or cover point. */
export function hasChecks(design: IrDesign): boolean {
  return design.modules.some((module) => (module.checks?.length ?? 0) > 0);
}

/** The name of a cover point in CheckResults.covers. */
export const coverName = (scope: string, name: string): string => (scope === '' ? name : `${scope}.${name}`);

const KIND_TEXT: Record<IrCheck['kind'], string> = {
  assert: 'assertion',
  assume: 'assumption',
  cover: 'cover point',
};

/** One line: `file:line: assertion failed at cycle 7 (in a.b): "message" (count=0x9, en=0x1)`. */
export function formatCheckFailure(failure: CheckFailure, engine?: string): string {
  const values = Object.entries(failure.values)
    .map(([name, value]) => `${name}=0x${value.toString(16)}`)
    .join(', ');
  return (
    `${formatLocation(failure.location)}: ${KIND_TEXT[failure.kind]} failed at cycle ${failure.cycle}` +
    `${failure.scope === '' ? '' : ` in ${failure.scope}`}${engine ? ` (${engine})` : ''}: ${JSON.stringify(failure.message)}` +
    `${values === '' ? '' : ` (${values})`}`
  );
}

/** A simulation stopped by a failing assertion or assumption; the message is formatCheckFailure's line. */
export class CheckFailedError extends UserError {
  constructor(
    readonly failure: CheckFailure,
    readonly engine?: string,
  ) {
    super(formatCheckFailure(failure, engine));
  }
}
