import { UserError } from './errors.ts';

/*
 * Command-line values checked from their text, so a message can say what was typed: yargs'
 * `type: 'number'` turns `abc` into NaN (and every NaN seed runs the same cases), rounds
 * 20-digit numbers silently and makes `1e309` Infinity, which JSON writes as null.
 */

/** Characters of a value shown in a message; longer ones are cut and their length given. */
export const QUOTED_CHARACTERS = 40;

/** `'abc'`, or `'1234567890123456789012345…' (1000000 characters)` for a long one: messages stay one short line. */
export function quoteValue(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  if (printable.length <= QUOTED_CHARACTERS) return `'${printable}'`;
  return `'${printable.slice(0, QUOTED_CHARACTERS - 15)}…' (${text.length} characters)`;
}

export interface NumberRange {
  readonly min?: number;
  readonly max?: number;
}

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+$/;
const HEX_INTEGER = /^0x[0-9a-fA-F]+$/;

function rangeText({ min, max }: NumberRange): string {
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  if (min !== undefined) return `≥ ${min}`;
  if (max !== undefined) return `≤ ${max}`;
  return '';
}

/**
 * A whole number from an option's text (decimal, or 0x… hex), in range. `abc`, `1.5`, `1e3`,
 * numbers past 2^53 (not exact as doubles, nor in JSON) and out-of-range values are refused in
 * one line that quotes the value shortened.
 */
export function integerOption(name: string, raw: unknown, range: NumberRange = {}): number {
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : undefined;
  const wanted = `a whole number${range.min !== undefined || range.max !== undefined ? ` ${rangeText(range)}` : ''}`;
  if (Array.isArray(raw)) throw new UserError(`give --${name} once`);
  if (text !== undefined && DECIMAL.test(text) && !Number.isFinite(Number(text)))
    throw new UserError(
      `--${name}: ${quoteValue(text)} is beyond ±1.8e308, the largest number a double (and JSON) holds; it needs ${wanted}`,
    );
  if (text === undefined || !(INTEGER.test(text) || HEX_INTEGER.test(text)))
    throw new UserError(`--${name} needs ${wanted}, got ${quoteValue(raw ?? '')}`);
  const big = BigInt(text.startsWith('+') ? text.slice(1) : text);
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER))
    throw new UserError(
      `--${name}: ${quoteValue(text)} is beyond ±2^53, the whole numbers a double (and JSON) holds exactly; it needs ${wanted}`,
    );
  const value = Number(big);
  if ((range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max))
    throw new UserError(`--${name} needs ${wanted}, got ${quoteValue(text)}`);
  return value;
}

/** A finite number from an option's text, in range; `1e309` is named as beyond what a double or JSON holds. */
export function numberOption(name: string, raw: unknown, range: NumberRange = {}): number {
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : undefined;
  const wanted = `a number${range.min !== undefined || range.max !== undefined ? ` ${rangeText(range)}` : ''}`;
  if (Array.isArray(raw)) throw new UserError(`give --${name} once`);
  if (text === undefined || !DECIMAL.test(text))
    throw new UserError(`--${name} needs ${wanted}, got ${quoteValue(raw ?? '')}`);
  const value = Number(text);
  if (!Number.isFinite(value))
    throw new UserError(
      `--${name}: ${quoteValue(text)} is beyond ±1.8e308, the largest number a double (and JSON) holds`,
    );
  if ((range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max))
    throw new UserError(`--${name} needs ${wanted}, got ${quoteValue(text)}`);
  return value;
}

/** Run seeds: the range the random default is drawn from (Date.now() mod 2^31). */
export const SEED_RANGE = { min: 0, max: 2 ** 31 - 1 } as const;

/**
 * `--shape -5x10`: a value that starts with `-` and a digit belongs to the option before it.
 * Without this yargs reads `-5x10` as the short flags -5, -x, -1, -0 ("Unknown arguments: 5, x"),
 * and the option's own check never sees the value.
 */
export function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const next = argv[index + 1];
    if (argument === '--') {
      joined.push(...argv.slice(index));
      break;
    }
    if (/^--[A-Za-z][\w-]*$/.test(argument) && next !== undefined && /^-[\d.]/.test(next)) {
      joined.push(`${argument}=${next}`);
      index++;
    } else joined.push(argument);
  }
  return joined;
}

/**
 * An option renamed this release: given under its old name, its value moves to the new one and a
 * one-line warning says so (the old name is kept for one release, then removed).
 */
export function takeRenamedOption(
  args: Record<string, unknown>,
  oldName: string,
  newName: string,
  warn: (line: string) => void = (line) => process.stderr.write(line),
): void {
  if (args[oldName] === undefined) return;
  warn(`gen: --${oldName} is now --${newName}; the old name goes in the next release\n`);
  args[newName] = args[oldName];
  delete args[oldName];
}
