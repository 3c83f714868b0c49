import { UserError } from '../../common/errors.ts';
import { placedModules, type IrDesign, type IrPrint } from './ir.ts';

/**
 * One line a printf printed, the same on every engine: the cycle whose edge printed it (the
 * engine step contract's t, 0-based), the instance it is in, and the text its format made.
 */
export interface PrintedLine {
  readonly cycle: number;
  /** Instance path from the top (`a.b`), '' for the top module. */
  readonly scope: string;
  readonly text: string;
}

/** A printf of a design with where it sits (PlacedCheck's counterpart). */
export interface PlacedPrint {
  readonly print: IrPrint;
  readonly module: string;
  /** Index in its module's `prints`. */
  readonly index: number;
  readonly scope: string;
}

/**
 * Every printf of every instance in print order: depth first from the top (an instance's prints
 * before those of its children, children in declaration order), declaration order within a
 * module. The lines of one cycle come out in this order on every engine.
 */
export function placedPrints(design: IrDesign): PlacedPrint[] {
  return placedModules(design).flatMap(({ module, scope }) =>
    (module.prints ?? []).map((print, index) => ({ print, module: module.name, index, scope })),
  );
}

/** Whether any module of the design has a printf. */
export function hasPrints(design: IrDesign): boolean {
  return design.modules.some((module) => (module.prints?.length ?? 0) > 0);
}

/** One printed line as `gen sim` shows it: `[cycle] text`, or `[cycle] a.b: text` below the top. */
export function formatPrintedLine(line: PrintedLine): string {
  return `[${line.cycle}] ${line.scope === '' ? '' : `${line.scope}: `}${line.text}`;
}

/** The most lines one run (one stream or session) may print: a bound on the memory they take. */
export const PRINTED_LINE_LIMIT = 1_000_000;

/** The error of a run that printed more than PRINTED_LINE_LIMIT lines. */
export const tooManyPrintedLines = (): UserError =>
  new UserError(
    `printf printed more than ${PRINTED_LINE_LIMIT.toLocaleString('en-US')} lines in one run: print under a narrower condition`,
  );
