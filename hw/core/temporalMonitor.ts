import { constant, type Value } from './value.ts';
import type { Property, Sequence, SequenceStep } from './temporal.ts';

/**
 * Compiles temporal properties (temporal.ts) into monitor logic of the module being built: past()
 * registers, which every edge updates whatever the enclosing `when` and reset clears, and gates.
 * The result is one bit a check reads, so simulation on every engine and `gen prove` see the same
 * automaton and a failure is reported in the same cycle everywhere.
 */

/** What a monitor needs of the module it is built in (ModuleBuilder.past), named so the builder imports this file and not the reverse. */
export interface MonitorHost {
  past<W extends number>(value: Value<W>): Value<W>;
}

const ONE = constant(1, 1) as Value<1>;
const ZERO = constant(0, 1) as Value<1>;

/** The OR of `values`, leaving out the constant 0s (slots no token can reach). */
function any(values: readonly Value<1>[]): Value<1> {
  const live = values.filter((value) => value !== ZERO);
  return live.length === 0 ? ZERO : live.reduce((sum, value) => sum.or(value) as Value<1>);
}

/** `value` delayed by 0..max edges: `history[k]` is `value` k edges ago (0 after reset). */
function history(m: MonitorHost, value: Value<1>, max: number): Value<1>[] {
  const delayed = [value];
  for (let k = 1; k <= max; k++) delayed.push(m.past(delayed[k - 1]!));
  return delayed;
}

/**
 * Whether `sequence` has a match ending in this cycle, for some start cycle where `start` held.
 * Matches of different starts merge: only their existence matters (an antecedent, a cover).
 */
export function sequenceMatch(m: MonitorHost, sequence: Sequence, start: Value<1> = ONE): Value<1> {
  let previous = start;
  for (const step of sequence.steps) {
    const delayed = history(m, previous, step.max);
    previous = step.condition.and(any(delayed.slice(step.min))) as Value<1>;
  }
  return previous;
}

/** A pending obligation of one attempt: step `step` is awaited, the step before it matched `waited` edges ago. */
interface Token {
  readonly step: number;
  readonly waited: number;
}

/** The ages (edges since the attempt began) at which a token can be live. */
function agesOf(steps: readonly SequenceStep[], token: Token): { first: number; last: number } {
  const before = steps.slice(0, token.step);
  return {
    first: before.reduce((sum, step) => sum + step.min, 0) + token.waited,
    last: before.reduce((sum, step) => sum + step.max, 0) + token.waited,
  };
}

const key = (token: Token): string => `${token.step}:${token.waited}`;

/**
 * The bit that is 1 in every cycle no attempt of `property` fails. An attempt begins in each
 * cycle the antecedent matches; its state is the set of live tokens (a nondeterministic automaton
 * over the consequent's steps), kept apart from other attempts by age — one register slot per
 * age up to the consequent's longest span — because one attempt's success must not discharge
 * another's obligation. An attempt fails in the cycle its last token expires unmatched.
 */
export function propertyHolds(m: MonitorHost, property: Property): Value<1> {
  const steps = property.consequent.steps;
  const span = steps.reduce((sum, step) => sum + step.max, 0);
  const begins = sequenceMatch(m, property.antecedent);
  let carried = new Map<string, Value<1>>();
  const failures: Value<1>[] = [];
  for (let age = 0; age <= span; age++) {
    const live = (token: Token): Value<1> => carried.get(key(token)) ?? ZERO;
    const next = new Map<string, Value<1>>();
    const awaited: Value<1>[] = [];
    let matched = age === 0 ? begins : ZERO;
    for (const [index, step] of steps.entries()) {
      const fresh = matched;
      const tokens = [fresh, ...Array.from({ length: step.max }, (_, w) => live({ step: index, waited: w + 1 }))];
      awaited.push(...tokens);
      const window = any(tokens.slice(step.min));
      matched = window === ZERO ? ZERO : (step.condition.and(window) as Value<1>);
      tokens.slice(0, step.max).forEach((token, waited) => next.set(key({ step: index, waited: waited + 1 }), token));
    }
    const succeeded = matched;
    const active = any(awaited);
    const survives = any([...next.values()]);
    failures.push(active.and(succeeded.not()).and(survives.not()) as Value<1>);
    // Next cycle's slot: the tokens that can be live one edge older, cleared once the attempt succeeded.
    carried = new Map();
    for (const [name, token] of next) {
      const [step, waited] = name.split(':').map(Number) as [number, number];
      const { first, last } = agesOf(steps, { step, waited });
      if (token === ZERO || age + 1 < first || age + 1 > last) continue;
      carried.set(name, m.past(token.and(succeeded.not()) as Value<1>));
    }
  }
  return any(failures).not() as Value<1>;
}
