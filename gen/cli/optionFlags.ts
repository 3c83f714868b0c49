import { FieldError } from '../../common/errors.ts';

/**
 * The one place library fields meet command-line flags: a FieldError names what was wrong in the
 * library's words (`splitK`), and `gen` prints it in the words the user typed (`--split-k`).
 * A field missing here is shown as `--` + its kebab-case form.
 */
const FIELD_FLAGS: Readonly<Record<string, string>> = {
  fromCycle: '--from',
  toCycle: '--to',
  patterns: '--signals',
};

/** The flag that sets a library field, e.g. `splitK` → `--split-k`. */
export function flagOfField(field: string): string {
  return FIELD_FLAGS[field] ?? `--${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** An error's message as `gen` prints it: a FieldError's field given as the flag that sets it. */
export function cliMessage(error: Error): string {
  return error instanceof FieldError ? `${flagOfField(error.field)} ${error.detail}` : error.message;
}
