import { UserError } from '../../common/errors.ts';
import { formatLocation, type SourceLocation } from './sourceLocation.ts';

/**
 * A mistake in the user's hardware description. It carries the user's source location, and its
 * message starts with `file:line:` so editors and terminals can jump there.
 */
export class HdlError extends UserError {
  constructor(
    readonly location: SourceLocation,
    readonly detail: string,
  ) {
    super(`${formatLocation(location)}: ${detail}`);
  }
}

/** Operands or an assignment whose widths do not agree (no silent truncation or extension). */
export class WidthMismatchError extends HdlError {}
/** An output, wire or instance input that nothing drives (on some or all paths). */
export class UndrivenSignalError extends HdlError {}
/** A signal given two unconditional drivers, or a driver where none may be (an input). */
export class MultipleDriverError extends HdlError {}
/** A combinational cycle; `path` lists the signals around it with their source lines. */
export class CombinationalLoopError extends HdlError {
  constructor(
    location: SourceLocation,
    detail: string,
    readonly path: readonly { name: string; location: SourceLocation }[],
  ) {
    super(location, detail);
  }
}
/** A register of one clock domain fed combinationally by state of another, with no synchronizer between. */
export class ClockCrossingError extends HdlError {}
/** A bit index or range outside the value's width. */
export class SliceRangeError extends HdlError {}
/** Two signals, ports, instances or memories of one module with the same name. */
export class DuplicateNameError extends HdlError {}
/** A parameter, width or size outside what the framework supports. */
export class InvalidParameterError extends HdlError {}
