import { captureSourceLocation, type SourceLocation } from './sourceLocation.ts';
import { bitsFor, constant, type Value } from './value.ts';
import type { Signal } from './signal.ts';
import type { ModuleBuilder } from './module.ts';
import { InvalidParameterError, WidthMismatchError } from './errors.ts';

/**
 * An enumerated type: named values of one width. Its values keep their names in the Verilog
 * (a `localparam` per value in every module that declares a signal of it) and in the manifest's
 * source map, from which `gen wave show` labels the signal's values.
 */
export interface HdlEnum<N extends string = string> {
  readonly name: string;
  readonly width: number;
  /** Value names in declaration order. */
  readonly names: readonly N[];
  /** The code of each value. */
  readonly codes: { readonly [K in N]: bigint };
  /** A value of the type, as a constant. */
  lit(value: N): Value;
  /** `value == code of name`. */
  is(value: Value, name: N): Value<1>;
  /** The name of a code (undefined for a code no value has). */
  nameOf(code: bigint): N | undefined;
  readonly location: SourceLocation;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Declares an enum: a list of names (coded 0, 1, 2, … in order) or a record of names to codes.
 * The width is what the largest code needs, unless `width` is given.
 */
export function defineEnum<const N extends string>(
  name: string,
  values: readonly N[] | { readonly [K in N]: number },
  options: { width?: number } = {},
): HdlEnum<N> {
  const location = captureSourceLocation();
  if (!NAME.test(name)) throw new InvalidParameterError(location, `enum name '${name}' is not a valid name`);
  const entries: [N, number][] = Array.isArray(values)
    ? (values as readonly N[]).map((value, index) => [value, index])
    : (Object.entries(values) as [N, number][]);
  if (entries.length === 0) throw new InvalidParameterError(location, `enum ${name} has no values`);
  const seenCodes = new Map<number, string>();
  for (const [valueName, code] of entries) {
    if (!NAME.test(valueName))
      throw new InvalidParameterError(location, `enum ${name}: '${valueName}' is not a valid value name`);
    if (!Number.isInteger(code) || code < 0)
      throw new InvalidParameterError(location, `enum ${name}: code ${code} of '${valueName}' is not a whole number`);
    const other = seenCodes.get(code);
    if (other !== undefined)
      throw new InvalidParameterError(
        location,
        `enum ${name}: '${valueName}' and '${other}' have the same code ${code}`,
      );
    seenCodes.set(code, valueName);
  }
  if (new Set(entries.map(([valueName]) => valueName)).size !== entries.length)
    throw new InvalidParameterError(location, `enum ${name} names a value twice`);
  const needed = bitsFor(Math.max(...entries.map(([, code]) => code)));
  const width = options.width ?? needed;
  if (width < needed)
    throw new WidthMismatchError(location, `enum ${name} needs ${needed} bits for its codes, got width ${width}`);
  const codes = Object.fromEntries(entries.map(([valueName, code]) => [valueName, BigInt(code)])) as {
    [K in N]: bigint;
  };
  const byCode = new Map(entries.map(([valueName, code]) => [BigInt(code), valueName]));
  const codeOf = (valueName: N): bigint => {
    const code = (codes as Record<string, bigint | undefined>)[valueName];
    if (code === undefined)
      throw new InvalidParameterError(
        captureSourceLocation(),
        `enum ${name} has no value '${valueName}' (it has: ${entries.map(([n]) => n).join(', ')})`,
      );
    return code;
  };
  return {
    name,
    width,
    names: entries.map(([valueName]) => valueName),
    codes,
    lit: (valueName) => constant(codeOf(valueName), width),
    is: (value, valueName) => {
      if (value.width !== width)
        throw new WidthMismatchError(
          captureSourceLocation(),
          `enum ${name} is ${width} bits, the value compared is ${value.width} bits`,
        );
      return value.eq(constant(codeOf(valueName), width));
    },
    nameOf: (code) => byCode.get(code),
    location,
  };
}

/** An enum-typed signal a module declared, with the transitions allowed between its values (absent: any). */
export interface EnumSignal {
  readonly signal: Signal;
  readonly type: HdlEnum;
  readonly transitions?: Transitions;
}

/** Allowed moves of a state register: `from -> to` pairs between value names (staying put is always allowed). */
export type Transitions = readonly (readonly [string, string])[];

/** The enum-typed signals each module declared (lowering copies them into the IR). */
const enumSignals = new WeakMap<ModuleBuilder, EnumSignal[]>();

function remember<S extends Signal>(m: ModuleBuilder, entry: EnumSignal & { signal: S }): S {
  const list = enumSignals.get(m) ?? [];
  list.push(entry);
  enumSignals.set(m, list);
  return entry.signal;
}

/**
 * The check that a state register moves only along `transitions` (or stays): an assertion over
 * the state one edge ago and now, read from the cycle after the first edge out of reset, so
 * simulation on every engine and `gen prove` report an illegal move in the cycle it lands.
 */
function assertTransitions<N extends string>(
  m: ModuleBuilder,
  name: string,
  type: HdlEnum<N>,
  state: Signal,
  transitions: readonly (readonly [N, N])[],
): void {
  const before = m.past(state);
  const started = m.past(constant(1, 1));
  const moves = type.names.map((from) => {
    const targets = [from, ...transitions.filter(([source]) => source === from).map(([, to]) => to)];
    return type.is(before, from).and(targets.map((to) => type.is(state, to)).reduce((a, b) => a.or(b)));
  });
  const legal = moves.reduce((a, b) => a.or(b));
  m.assert(started.not().or(legal), `'${name}' moves only along its declared transitions`);
}

/**
 * A register holding a value of `type`; `reset` names its value after reset. `transitions` (from
 * each value, the values it may move to; staying is always allowed) makes every other move, and
 * any code outside the enum, an assertion failure, and gives coverage its transition bins.
 */
export function enumReg<N extends string>(
  m: ModuleBuilder,
  name: string,
  type: HdlEnum<N>,
  options: { reset?: N; transitions?: { readonly [K in N]?: readonly N[] } } = {},
): Signal {
  const location = captureSourceLocation();
  const reset = options.reset === undefined ? undefined : type.codes[options.reset];
  if (options.reset !== undefined && reset === undefined)
    throw new InvalidParameterError(location, `enum ${type.name} has no value '${options.reset}'`);
  const signal = m.reg(name, type.width, reset === undefined ? {} : { reset });
  if (options.transitions === undefined) return remember(m, { signal, type });
  const pairs = Object.entries<readonly N[] | undefined>(options.transitions).flatMap(([from, targets]) =>
    (targets ?? []).map((to) => [from as N, to] as const),
  );
  const unknown = pairs.flat().find((value) => !type.names.includes(value));
  if (unknown !== undefined)
    throw new InvalidParameterError(
      location,
      `enum register '${name}': transition names '${unknown}', not a value of ${type.name}`,
    );
  assertTransitions(m, name, type, signal, pairs);
  return remember(m, { signal, type, transitions: pairs });
}

/** @internal fsm(): its register, with the transitions its state bodies make (legal by construction, so not asserted). */
export function fsmReg<N extends string>(
  m: ModuleBuilder,
  name: string,
  type: HdlEnum<N>,
  reset: N,
  transitions: readonly (readonly [N, N])[],
): Signal {
  return remember(m, { signal: m.reg(name, type.width, { reset: type.codes[reset] }), type, transitions });
}

/** A wire carrying a value of `type`. */
export function enumWire(m: ModuleBuilder, name: string, type: HdlEnum): Signal {
  return remember(m, { signal: m.wire(name, type.width), type });
}

/** @internal for lowering: the enum-typed signals of a built module. */
export function enumSignalsOf(m: ModuleBuilder): readonly EnumSignal[] {
  return enumSignals.get(m) ?? [];
}
