import { UserError } from '../common/errors.ts';
import { quoteValue } from '../common/optionValues.ts';

/** The time units IEEE 1364 allows in `$timescale`, in femtoseconds (all fit a double exactly). */
const UNIT_FEMTOSECONDS = { s: 1e15, ms: 1e12, us: 1e9, ns: 1e6, ps: 1e3, fs: 1 } as const;

export type TimeUnit = keyof typeof UNIT_FEMTOSECONDS;

/** A parsed `$timescale`: one tick of the file's `#time` is `femtoseconds` fs. */
export interface Timescale {
  readonly magnitude: 1 | 10 | 100;
  readonly unit: TimeUnit;
  readonly femtoseconds: number;
  /** Canonical text, e.g. `10ns`. */
  readonly text: string;
}

/** Parses `1ns`, `10 ps`, `100ms`… (the only magnitudes the standard allows are 1, 10 and 100); undefined if malformed. */
export function parseTimescale(text: string): Timescale | undefined {
  const match = /^\s*(1|10|100)\s*(s|ms|us|ns|ps|fs)\s*$/.exec(text);
  if (!match) return undefined;
  const magnitude = Number(match[1]) as 1 | 10 | 100;
  const unit = match[2] as TimeUnit;
  return { magnitude, unit, femtoseconds: magnitude * UNIT_FEMTOSECONDS[unit], text: `${magnitude}${unit}` };
}

/** Like parseTimescale, for options a user typed: a malformed one is a UserError. */
export function requireTimescale(text: string): Timescale {
  const parsed = parseTimescale(text);
  if (!parsed)
    throw new UserError(`bad timescale ${quoteValue(text)}: expected 1, 10 or 100 followed by s, ms, us, ns, ps or fs`);
  return parsed;
}
