import type { Signal } from './signal.ts';
import { Signal as SignalClass } from './signal.ts';
import { HdlError, WidthMismatchError } from './errors.ts';
import { captureSourceLocation, type SourceLocation } from './sourceLocation.ts';
import { flattenPorts, isPortSpec, output, type Flipped, type IoOf, type PortSpec, type PortTree } from './ports.ts';
import type { ModuleBuilder } from './module.ts';
import { strictGroup } from './strictPorts.ts';

/**
 * Interfaces (bundles): a bundle type is a port tree written from the producer's side — `output`
 * for the fields that flow forward (valid, data), `input` for those that flow back (ready). The
 * same tree is a module's port group (`flip` it on the consumer side), a group of wires
 * (`wires`), a group of registers (`regs`), and an element of `vec`. `connect` joins two
 * matching interfaces field by field, in the direction each field flows.
 */

/** A mismatch between two interfaces given to `connect` (a missing field, a width, a direction). */
export class InterfaceMismatchError extends HdlError {}

/** Names a bundle type (a group of fields); the same object as given, for reading. */
export function bundle<T extends { readonly [name: string]: PortTree }>(fields: T): T {
  return fields;
}

/** The tree with every direction turned round: the consumer's side of a producer's bundle. */
export function flip<T extends PortTree>(tree: T): Flipped<T> {
  if (isPortSpec(tree)) {
    const spec: PortSpec = tree;
    return { ...spec, direction: spec.direction === 'input' ? 'output' : 'input' } as unknown as Flipped<T>;
  }
  if (Array.isArray(tree)) return tree.map((element: PortTree) => flip(element)) as unknown as Flipped<T>;
  return Object.fromEntries(
    Object.entries(tree as Record<string, PortTree>).map(([key, child]) => [key, flip(child)]),
  ) as unknown as Flipped<T>;
}

/** For signals made by `wires`/`regs`: the direction their field has in the bundle type. */
const declaredDirection = new WeakMap<Signal, 'input' | 'output'>();

function buildGroup<T extends PortTree>(
  tree: T,
  name: string,
  make: (name: string, spec: PortSpec) => Signal,
): IoOf<T> {
  const walk = (node: PortTree, path: string): unknown => {
    if (isPortSpec(node)) {
      const signal = make(path, node);
      declaredDirection.set(signal, node.direction);
      return signal;
    }
    if (Array.isArray(node))
      return strictGroup(
        node.map((element: PortTree, index: number) => walk(element, `${path}_${index}`)),
        `group '${path}'`,
      );
    return strictGroup(
      Object.fromEntries(
        Object.entries(node as Record<string, PortTree>).map(([key, child]) => [key, walk(child, `${path}_${key}`)]),
      ),
      `group '${path}'`,
    );
  };
  return walk(tree, name) as IoOf<T>;
}

/** A group of wires shaped like `tree`, named `name_field…`; drive them with `set` or `connect`. */
export function wires<T extends PortTree>(m: ModuleBuilder, name: string, tree: T): IoOf<T> {
  return buildGroup(tree, name, (leaf, spec) => m.wire(leaf, spec.width));
}

/** A group of registers shaped like `tree`; `reset` (if given) is every field's reset value. */
export function regs<T extends PortTree>(
  m: ModuleBuilder,
  name: string,
  tree: T,
  options: { reset?: number | bigint } = {},
): IoOf<T> {
  return buildGroup(tree, name, (leaf, spec) => m.reg(leaf, spec.width, options));
}

/** The total width of a bundle type's fields. */
export function bundleWidth(tree: PortTree): number {
  return flattenPorts(tree).reduce((sum, leaf) => sum + leaf.spec.width, 0);
}

/**
 * Whether a field flows forward (from `source` to `sink`), seen from one side of a connection:
 * own outputs and instance inputs are driven here, so on the sink side they are forward fields;
 * own inputs and instance outputs are read here, so they are forward on the source side; wires
 * and registers of `wires`/`regs` flow as their bundle type says.
 */
function flowsForward(signal: Signal, side: 'sink' | 'source'): boolean | undefined {
  switch (signal.kind) {
    case 'output':
    case 'instanceInput':
      return side === 'sink';
    case 'input':
    case 'instanceOutput':
      return side === 'source';
    default: {
      const direction = declaredDirection.get(signal);
      return direction === undefined ? undefined : direction === 'output';
    }
  }
}

type Group = Signal | readonly Group[] | { readonly [name: string]: Group };

/**
 * Connects two matching interfaces in one call: each forward field of `sink` is driven by the same
 * field of `source`, each backward (flipped) field of `source` by that of `sink`. For ports the
 * direction is known from the port itself; wires follow their bundle type. Fields that do not
 * match (a name on one side only, a width, a length, a direction) are an InterfaceMismatchError
 * naming the field.
 */
export function connect(sink: unknown, source: unknown): void {
  const location = captureSourceLocation();
  const pairs: [string, Signal, Signal][] = [];
  collect(sink as Group, source as Group, '', pairs, location);
  for (const [path, s, r] of pairs) {
    const forwardS = flowsForward(s, 'sink');
    const forwardR = flowsForward(r, 'source');
    if (forwardS !== undefined && forwardR !== undefined && forwardS !== forwardR)
      throw new InterfaceMismatchError(
        location,
        `field '${path}' flows the same way on both sides ('${s.name}' and '${r.name}' are both ${forwardS ? 'driven' : 'read'} here); flip one of the interfaces`,
      );
    if (forwardS ?? forwardR ?? true) s.set(r);
    else r.set(s);
  }
}

function describe(group: Group): string {
  if (group instanceof SignalClass) return `a ${group.width}-bit signal`;
  if (Array.isArray(group)) return `a vec of ${group.length}`;
  return `a bundle of {${Object.keys(group).join(', ')}}`;
}

function collect(
  sink: Group,
  source: Group,
  path: string,
  pairs: [string, Signal, Signal][],
  location: SourceLocation,
): void {
  const at = path === '' ? 'the interfaces' : `field '${path}'`;
  if (sink instanceof SignalClass || source instanceof SignalClass) {
    if (!(sink instanceof SignalClass && source instanceof SignalClass))
      throw new InterfaceMismatchError(
        location,
        `${at}: ${describe(sink)} on one side, ${describe(source)} on the other`,
      );
    if (sink.width !== source.width)
      throw new WidthMismatchError(
        location,
        `${at}: '${sink.name}' is ${sink.width} bits, '${source.name}' is ${source.width} bits`,
      );
    pairs.push([path, sink, source]);
    return;
  }
  if (typeof sink !== 'object' || sink === null || typeof source !== 'object' || source === null)
    throw new InterfaceMismatchError(location, `${at}: connect needs two interfaces (signals, bundles or vecs)`);
  if (Array.isArray(sink) !== Array.isArray(source))
    throw new InterfaceMismatchError(
      location,
      `${at}: ${describe(sink)} on one side, ${describe(source)} on the other`,
    );
  if (Array.isArray(sink)) {
    const other = source as readonly Group[];
    if (sink.length !== other.length)
      throw new InterfaceMismatchError(location, `${at}: a vec of ${sink.length} against a vec of ${other.length}`);
    sink.forEach((element: Group, index: number) =>
      collect(element, other[index]!, path === '' ? String(index) : `${path}.${index}`, pairs, location),
    );
    return;
  }
  const sinkFields = sink as { readonly [name: string]: Group };
  const sourceFields = source as { readonly [name: string]: Group };
  const sinkKeys = Object.keys(sinkFields);
  const sourceKeys = new Set(Object.keys(sourceFields));
  for (const key of sinkKeys)
    if (!sourceKeys.has(key))
      throw new InterfaceMismatchError(
        location,
        `field '${path === '' ? key : `${path}.${key}`}' is on the sink side only (the source has: ${[...sourceKeys].join(', ')})`,
      );
  for (const key of sourceKeys)
    if (!(key in sinkFields))
      throw new InterfaceMismatchError(
        location,
        `field '${path === '' ? key : `${path}.${key}`}' is on the source side only (the sink has: ${sinkKeys.join(', ')})`,
      );
  for (const key of sinkKeys)
    collect(sinkFields[key]!, sourceFields[key]!, path === '' ? key : `${path}.${key}`, pairs, location);
}

/**
 * The fields of bundle type `tree` taken out of `group` (a module's io, an instance's ports, a
 * group of wires) by name: the interface of a bundle spread into a port list beside other ports
 * (`{ ...flowOf(…), busy: output(1) }`), for `connect` or for reading. A field `group` lacks is an
 * InterfaceMismatchError naming it.
 */
export function fieldsOf<T extends { readonly [name: string]: PortTree }>(group: object, tree: T): IoOf<T> {
  const location = captureSourceLocation();
  const names = Object.keys(tree);
  for (const name of names)
    if (!Object.prototype.hasOwnProperty.call(group, name))
      throw new InterfaceMismatchError(
        location,
        `field '${name}' of the bundle is not in the interface (it has: ${Object.keys(group).join(', ')})`,
      );
  const fields = group as Record<string, unknown>;
  return strictGroup(Object.fromEntries(names.map((name) => [name, fields[name]])), 'bundle fields') as IoOf<T>;
}

/** A Flow whose payload is the fields of `P`, beside a valid bit named `V`. */
export type FlowOf<P extends { readonly [name: string]: PortTree }, V extends string = 'valid'> = {
  readonly [K in V]: PortSpec<1>;
} & P;

/**
 * A Flow (a valid-only stream, hw/lib/stream) whose payload is a bundle of named fields (outputs,
 * from the producer's side) that sit beside the valid bit, so that spread into a port list every
 * field keeps its own name: `{ ...flowOf({ pointer: output(6) }) }` declares the ports `valid` and
 * `pointer`, and `fieldsOf(io, type)` takes the Flow back out of the io for `connect`. `valid`
 * renames the valid bit for handshakes whose valid has a name of its own (`start`, `dValid`);
 * `description` documents it. A payload field that flows back (an `input`) or is named like the
 * valid bit is an HdlError at the caller's line: a Flow has no backward field.
 */
export function flowOf<P extends { readonly [name: string]: PortTree }, V extends string = 'valid'>(
  payload: P,
  options: { readonly valid?: V; readonly description?: string } = {},
): FlowOf<P, V> {
  const location = captureSourceLocation();
  const valid = options.valid ?? 'valid';
  if (Object.prototype.hasOwnProperty.call(payload, valid))
    throw new HdlError(location, `flowOf: the payload has a field '${valid}', the name of the valid bit`);
  const backward = flattenPorts(payload).find((leaf) => leaf.spec.direction !== 'output');
  if (backward)
    throw new HdlError(
      location,
      `flowOf: payload field '${backward.name}' is an input; a Flow's fields all flow forward (declare them with output, flip the whole Flow for the consumer)`,
    );
  return { [valid]: output(1, options.description), ...payload } as FlowOf<P, V>;
}
