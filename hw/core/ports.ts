import type { Signal } from './signal.ts';
import { checkWidth } from './value.ts';
import { captureSourceLocation } from './sourceLocation.ts';
import { strictGroup } from './strictPorts.ts';

/** Which way a port points. */
export type PortDirection = 'input' | 'output';

/** One port: its direction and width, as declared in a module definition's `ports`. */
export interface PortSpec<W extends number = number, D extends PortDirection = PortDirection> {
  readonly direction: D;
  readonly width: W;
  readonly description?: string;
}

/** Ports as a tree: single ports, named groups (bundles) and arrays, flattened to `a_b_0` names. */
export type PortTree = PortSpec | { readonly [name: string]: PortTree } | readonly PortTree[];

/** The signals a module body (or a parent, for an instance) gets for a port tree, keeping its shape. */
export type IoOf<T> =
  T extends PortSpec<infer W>
    ? Signal<W>
    : T extends readonly (infer E)[]
      ? IoOf<E>[]
      : { readonly [K in keyof T]: IoOf<T[K]> };

/**
 * A top's ports as TypeScript sees them: each flattened name (`a_b_0`, as the engines and the
 * Verilog name them) with its direction and width type, so a testbench or a suite accepts only
 * the design's port names. `PortTypes` itself (any name) is what a design of unknown ports has.
 */
export type PortTypes = { readonly [name: string]: PortSpec };

type JoinedName<Prefix extends string, Key extends string> = Prefix extends '' ? Key : `${Prefix}_${Key}`;

/** Every leaf of a port tree as `{ name, spec }`; a tree of unknown shape gives any name. */
type PortLeaves<T, Name extends string> = PortTree extends T
  ? { readonly name: JoinedName<Name, string>; readonly spec: PortSpec }
  : T extends PortSpec<infer W, infer D>
    ? { readonly name: Name; readonly spec: PortSpec<W, D> }
    : T extends readonly (infer Element)[]
      ? PortLeaves<Element, JoinedName<Name, `${number}`>>
      : { [K in keyof T & string]: PortLeaves<T[K], JoinedName<Name, K>> }[keyof T & string];

/** The flattened ports of a port tree, by name (what `elaborate` gives a design's type). */
export type FlatPortsOf<T> = PortTree extends T
  ? PortTypes
  : {
      readonly [
        Leaf in PortLeaves<T, ''> as Leaf extends { readonly name: infer Name extends string } ? Name : never
      ]: Leaf extends { readonly spec: infer Spec } ? Spec : never;
    };

/** A port tree with every direction turned round, as `flip` makes it. */
export type Flipped<T> =
  T extends PortSpec<infer W, infer D>
    ? PortSpec<W, D extends 'input' ? 'output' : 'input'>
    : T extends readonly (infer Element)[]
      ? Flipped<Element>[]
      : { readonly [K in keyof T]: Flipped<T[K]> };

/**
 * Reset inputs a clocked top gains beside its declared ports (`reset`, and `rst_<domain>` for
 * each named clock domain); testbenches may drive them.
 */
type ResetPortName = 'reset' | `rst_${string}`;

/** The names of a design's inputs a testbench may drive. */
export type InputName<P extends PortTypes> = string extends keyof P
  ? string
  : { [K in keyof P & string]: 'input' extends P[K]['direction'] ? K : never }[keyof P & string] | ResetPortName;

/** The names of a design's outputs a testbench may read or expect. */
export type OutputName<P extends PortTypes> = string extends keyof P
  ? string
  : { [K in keyof P & string]: 'output' extends P[K]['direction'] ? K : never }[keyof P & string];

/**
 * Per-port values by the names a design's type allows (any name where its ports are not known).
 * Every key is optional, so tsc refuses a row that shares no name with the design even where it
 * cannot check a returned literal's extra keys (a callback's inferred return type loses them).
 * The `rst_<domain>` pattern is left out here: it would let every row through that check.
 */
export type PortValuesOf<Names extends string> = string extends Names
  ? Record<string, bigint>
  : { readonly [K in Exclude<Names, `rst_${string}`>]?: bigint };

/** An input port of `width` bits. */
export function input<W extends number>(width: W, description?: string): PortSpec<W, 'input'> {
  // Checked where the port is declared, before `build` runs: a width of 10^6 is refused at once
  // instead of after minutes of building a million-bit design.
  checkWidth(width, captureSourceLocation());
  return { direction: 'input', width, ...(description === undefined ? {} : { description }) };
}

/** An output port of `width` bits. */
export function output<W extends number>(width: W, description?: string): PortSpec<W, 'output'> {
  checkWidth(width, captureSourceLocation());
  return { direction: 'output', width, ...(description === undefined ? {} : { description }) };
}

/** `count` copies of a port or group: an array port, named `name_0 … name_{count-1}`. */
export function vec<T extends PortTree>(count: number, element: T): T[] {
  return Array.from({ length: count }, () => element);
}

export function isPortSpec(tree: PortTree): tree is PortSpec {
  return typeof (tree as PortSpec).direction === 'string' && typeof (tree as PortSpec).width === 'number';
}

/** Walks a port tree in declaration order, giving each leaf its flattened name. */
export function flattenPorts(
  tree: PortTree,
  prefix = '',
): { name: string; spec: PortSpec; path: (string | number)[] }[] {
  const out: { name: string; spec: PortSpec; path: (string | number)[] }[] = [];
  const walk = (node: PortTree, name: string, path: (string | number)[]): void => {
    if (isPortSpec(node)) {
      out.push({ name, spec: node, path });
      return;
    }
    const entries: [string | number, PortTree][] = Array.isArray(node)
      ? node.map((element, index) => [index, element] as [number, PortTree])
      : Object.entries(node as Record<string, PortTree>);
    for (const [key, child] of entries) walk(child, name === '' ? String(key) : `${name}_${key}`, [...path, key]);
  };
  walk(tree, prefix, []);
  return out;
}

/** Builds the IoOf shape from a port tree, making each leaf with `make`. */
export function mapPorts<T extends PortTree>(tree: T, make: (name: string, spec: PortSpec) => Signal): IoOf<T> {
  const build = (node: PortTree, name: string): unknown => {
    if (isPortSpec(node)) return make(name, node);
    // Groups refuse unknown names with an HdlError at the user's line (strictPorts.ts).
    const what = name === '' ? 'the port list' : `port group '${name}'`;
    if (Array.isArray(node))
      return strictGroup(
        node.map((element: PortTree, index: number) =>
          build(element, name === '' ? String(index) : `${name}_${index}`),
        ),
        what,
      );
    return strictGroup(
      Object.fromEntries(
        Object.entries(node as Record<string, PortTree>).map(([key, child]) => [
          key,
          build(child, name === '' ? key : `${name}_${key}`),
        ]),
      ),
      what,
    );
  };
  return build(tree, '') as IoOf<T>;
}
