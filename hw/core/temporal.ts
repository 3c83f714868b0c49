import { captureSourceLocation } from './sourceLocation.ts';
import { InvalidParameterError, WidthMismatchError } from './errors.ts';
import { Value } from './value.ts';

/**
 * Temporal properties over clock edges, after SVA's sequences and properties (IEEE 1800 §16) and
 * Chisel's `chisel3.ltl`: a Sequence is booleans joined by delays (`a ##2 b ##[1:3] c`); a
 * Property is an implication from a sequence to a sequence (`|->`, `|=>`). They are descriptions
 * only: `m.assert`, `m.assume` and `m.cover` compile them into monitor logic (temporalMonitor.ts),
 * registers and gates in the design itself, so every engine and `gen prove` check the same thing.
 */

/** A delay in clock edges: `n` (SVA `##n`) or an inclusive range `[min, max]` (`##[min:max]`). */
export type Delay = number | readonly [number, number];

/** The longest delay of one step: it bounds the registers a monitor needs. */
export const MAX_DELAY = 64;

/** One boolean of a sequence and the delay before it (from the previous step's match, or the start). */
export interface SequenceStep {
  readonly min: number;
  readonly max: number;
  readonly condition: Value<1>;
}

function delayRange(delay: Delay): [number, number] {
  const [min, max] = typeof delay === 'number' ? [delay, delay] : delay;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min || max > MAX_DELAY)
    throw new InvalidParameterError(
      captureSourceLocation(),
      `a delay is a whole number or a range [min, max] with 0 <= min <= max <= ${MAX_DELAY}, got ${JSON.stringify(delay)}`,
    );
  return [min, max];
}

function oneBit(value: Value, what: string): Value<1> {
  if (!(value instanceof Value) || value.width !== 1)
    throw new WidthMismatchError(
      captureSourceLocation(),
      `${what} needs a 1-bit hardware value${value instanceof Value ? `, got ${value.width} bits` : ''}`,
    );
  return value as Value<1>;
}

/** A sequence of booleans separated by delays; it matches in the cycle its last boolean holds. */
export class Sequence {
  /** @internal use seq(), delay() or eventually() */
  constructor(readonly steps: readonly SequenceStep[]) {}

  /** This sequence, then `next` after `delay` edges (SVA `this ##delay next`). */
  then(delay: Delay, next: Value | Sequence): Sequence {
    const [min, max] = delayRange(delay);
    const [first, ...rest] = toSequence(next, 'then()').steps;
    return new Sequence([
      ...this.steps,
      { min: first!.min + min, max: first!.max + max, condition: first!.condition },
      ...rest,
    ]);
  }

  /** Overlapping implication (SVA `this |-> consequent`): each match must be followed by a match of `consequent` starting in the same cycle. */
  implies(consequent: Value | Sequence): Property {
    return new Property(this, toSequence(consequent, 'implies()'));
  }

  /** Non-overlapping implication (SVA `this |=> consequent`): `consequent` starts in the next cycle. */
  impliesNext(consequent: Value | Sequence): Property {
    return new Property(this, new Sequence([]).then(1, consequent));
  }
}

/** Antecedent `|->` consequent: the property fails in the cycle an attempt can no longer succeed. */
export class Property {
  /** @internal use Sequence.implies / impliesNext */
  constructor(
    readonly antecedent: Sequence,
    readonly consequent: Sequence,
  ) {}
}

function toSequence(value: Value | Sequence, what: string): Sequence {
  return value instanceof Sequence ? value : new Sequence([{ min: 0, max: 0, condition: oneBit(value, what) }]);
}

/** A sequence that starts with the 1-bit `first` (and goes on with `.then`). */
export function seq(first: Value): Sequence {
  return toSequence(first, 'seq()');
}

/** `next` after `delay` edges, as the start of a consequent: `seq(req).implies(delay([1, 3], ack))` is SVA `req |-> ##[1:3] ack`. */
export function delay(delay: Delay, next: Value | Sequence): Sequence {
  return new Sequence([]).then(delay, next);
}

/** Bounded eventually: `condition` holds within `within` edges from now, now included (SVA `##[0:within] condition`). */
export function eventually(condition: Value, options: { readonly within: number }): Sequence {
  return delay([0, options.within], oneBit(condition, 'eventually()'));
}
