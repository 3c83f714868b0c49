/**
 * Errors a user caused (a bad file, a bad option, a bad design). The CLI prints their message as
 * one line and exits non-zero with no stack trace; anything else is a bug and keeps its trace.
 */
export class UserError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A bad value of one option or parameter of a library call, named by its field in the library's
 * own words (`shard`, `splitK`, `out`), never by a command-line flag: the CLI maps fields to its
 * flags in one table (gen/cli/optionFlags.ts). The message reads `FIELD DETAIL`.
 */
export class FieldError extends UserError {
  constructor(
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${field} ${detail}`);
  }
}

/** A file the user handed us is malformed; the message names the file and, where known, the position. */
export class FileFormatError extends UserError {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly position?: { line?: number; offset?: number },
  ) {
    const where =
      position?.line !== undefined
        ? `:${position.line}`
        : position?.offset !== undefined
          ? ` (byte ${position.offset})`
          : '';
    super(`${file}${where}: ${detail}`);
  }
}

/** An external tool (Verilator, Icarus, Yosys, OpenSTA, GTKWave) is missing, failed or timed out. */
export class ToolError extends UserError {
  constructor(
    readonly tool: string,
    message: string,
  ) {
    super(`${tool}: ${message}`);
  }
}
