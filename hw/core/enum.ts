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

/** The enum-typed signals each module declared (lowering copies them into the IR). */
const enumSignals = new WeakMap<ModuleBuilder, { signal: Signal; type: HdlEnum }[]>();

function remember<S extends Signal>(m: ModuleBuilder, signal: S, type: HdlEnum): S {
  const list = enumSignals.get(m) ?? [];
  list.push({ signal, type });
  enumSignals.set(m, list);
  return signal;
}

/** A register holding a value of `type`; `reset` names its value after reset. */
export function enumReg<N extends string>(
  m: ModuleBuilder,
  name: string,
  type: HdlEnum<N>,
  options: { reset?: N } = {},
): Signal {
  const reset = options.reset === undefined ? undefined : type.codes[options.reset];
  if (options.reset !== undefined && reset === undefined)
    throw new InvalidParameterError(captureSourceLocation(), `enum ${type.name} has no value '${options.reset}'`);
  return remember(m, m.reg(name, type.width, reset === undefined ? {} : { reset }), type);
}

/** A wire carrying a value of `type`. */
export function enumWire(m: ModuleBuilder, name: string, type: HdlEnum): Signal {
  return remember(m, m.wire(name, type.width), type);
}

/** @internal for lowering: the enum-typed signals of a built module. */
export function enumSignalsOf(m: ModuleBuilder): readonly { signal: Signal; type: HdlEnum }[] {
  return enumSignals.get(m) ?? [];
}
