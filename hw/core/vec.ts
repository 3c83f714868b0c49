import { captureSourceLocation } from './sourceLocation.ts';
import { InvalidParameterError } from './errors.ts';
import { Signal } from './signal.ts';
import { Value, constant, select, type Operand } from './value.ts';
import type { ModuleBuilder } from './module.ts';

/** What a vector holds: signals, or groups and arrays of them (a bundle's wires or registers). */
export type VecElement = Signal | { readonly [field: string]: VecElement } | readonly VecElement[];

/**
 * An element read at a hardware index: a value (the multiplexed read) that can also be driven,
 * which drives the element the index selects in that cycle and leaves the others as they are.
 */
export class VecEntry<W extends number = number> extends Value<W> {
  constructor(
    read: Value<W>,
    private readonly drive: (value: Value) => void,
  ) {
    super(read.op, read.width, read.args, read.location, read.attributes);
  }

  /** Drives the selected element (in the current `when` context); other elements keep their drivers. */
  set<O extends number>(value: Operand<W, O>): void {
    this.drive(value instanceof Value ? value : constant(value, this.width, captureSourceLocation()));
  }
}

/** An element's shape read at a hardware index: each signal becomes a VecEntry of its width. */
export type EntryOf<T> =
  T extends Signal<infer W>
    ? VecEntry<W>
    : T extends readonly (infer E)[]
      ? EntryOf<E>[]
      : { readonly [K in keyof T]: EntryOf<T[K]> };

/**
 * A vector of `N` signals or bundles of one shape (Chisel's `Vec`): a constant index gives the
 * element itself, checked against the length at your line (no `!` needed under
 * `noUncheckedIndexedAccess`); a hardware index gives an entry to read (a multiplexer) and to
 * drive (a decoder: each element is driven when the index selects it). An index at or past the
 * length reads the last element and drives none. It lowers to muxes and `when` blocks, so it
 * simulates, emits Verilog and synthesizes as hand-written selection does.
 */
export class Vec<T extends VecElement, N extends number = number> implements Iterable<T> {
  /** How many elements the vector has (a literal type where the count is one). */
  readonly length: N;

  constructor(
    private readonly m: ModuleBuilder,
    private readonly elements: readonly T[],
  ) {
    if (elements.length === 0)
      throw new InvalidParameterError(captureSourceLocation(), 'a Vec needs at least one element');
    // The count the caller typed N from (a tuple's length, a literal count) is this length.
    this.length = elements.length as N;
  }

  /** The element at a constant index, or an entry that reads and drives the element a hardware index selects. */
  at(index: number): T;
  at(index: Value): EntryOf<T>;
  at(index: number | Value): T | EntryOf<T> {
    if (index instanceof Value) return this.entry(index, this.elements as readonly VecElement[]) as EntryOf<T>;
    const location = captureSourceLocation();
    const element = this.elements[index];
    if (!Number.isInteger(index) || element === undefined)
      throw new InvalidParameterError(location, `index ${index} is outside a Vec of ${this.length} elements`);
    return element;
  }

  /** The elements in order. */
  [Symbol.iterator](): Iterator<T> {
    return this.elements[Symbol.iterator]();
  }

  /** A new array of `transform` applied to each element with its index. */
  map<R>(transform: (element: T, index: number) => R): R[] {
    return this.elements.map(transform);
  }

  private entry(index: Value, column: readonly VecElement[]): unknown {
    const first = column[0]!;
    if (first instanceof Signal) {
      const signals = column as readonly Signal[];
      return new VecEntry(select(index, signals), (value) => {
        signals.forEach((signal, position) => {
          if (position < 2 ** index.width)
            this.m.when(index.eq(constant(position, index.width, captureSourceLocation())), () => signal.set(value));
        });
      });
    }
    // A group: the same field of every element forms a column of its own.
    const field = (key: string | number): unknown =>
      this.entry(
        index,
        column.map((element) => (element as Record<string | number, VecElement>)[key]!),
      );
    if (Array.isArray(first)) return first.map((_, position) => field(position));
    return Object.fromEntries(Object.keys(first).map((key) => [key, field(key)]));
  }
}

/** A vector of the given signals or bundles (ports of a `vec`, `regs`/`wires` groups, …). */
export function vecOf<const T extends readonly VecElement[]>(
  m: ModuleBuilder,
  elements: T,
): Vec<T[number], T['length']> {
  return new Vec(m, elements);
}

/** `count` registers of `width` bits named `name_0 … name_{count-1}`, with an optional reset value. */
export function regVec<N extends number, W extends number>(
  m: ModuleBuilder,
  name: string,
  count: N,
  width: W,
  options: { reset?: number | bigint } = {},
): Vec<Signal<W>, N> {
  return new Vec(
    m,
    elementsOf(count, (index) => m.reg(`${name}_${index}`, width, options)),
  );
}

/** `count` wires of `width` bits named `name_0 … name_{count-1}`. */
export function wireVec<N extends number, W extends number>(
  m: ModuleBuilder,
  name: string,
  count: N,
  width: W,
): Vec<Signal<W>, N> {
  return new Vec(
    m,
    elementsOf(count, (index) => m.wire(`${name}_${index}`, width)),
  );
}

function elementsOf<T>(count: number, make: (index: number) => T): readonly T[] {
  if (!Number.isInteger(count) || count < 1)
    throw new InvalidParameterError(
      captureSourceLocation(),
      `a Vec needs a whole number of elements ≥ 1, got ${count}`,
    );
  return Array.from({ length: count }, (_, index) => make(index));
}
