import {
  bundle,
  captureSourceLocation,
  flattenPorts,
  HdlError,
  output,
  type IoOf,
  type PortSpec,
  type PortTree,
} from '../../core/index.ts';

/**
 * A valid-only stream of `width`-bit words (SpinalHDL's `Flow`: a Stream without `ready`), from
 * the producer's side: `valid` and `data` flow forward, nothing flows back, and the consumer takes
 * `data` in every cycle `valid` is 1 (it cannot stall the producer). `flip(Flow(w))` is the
 * consumer's port, `wires(m, name, Flow(w))` a Flow inside a module.
 */
export function Flow<W extends number>(width: W) {
  return bundle({ valid: output(1), data: output(width) });
}

/** The signals of one Flow of words, whichever side. */
export type FlowIo = IoOf<ReturnType<typeof Flow>>;

/** A Flow whose payload is the fields of `P`, beside a valid bit named `V`. */
export type FlowOf<P extends { readonly [name: string]: PortTree }, V extends string = 'valid'> = {
  readonly [K in V]: PortSpec<1>;
} & P;

/**
 * A Flow whose payload is a bundle of named fields (outputs, from the producer's side) that sit
 * beside the valid bit, so that spread into a port list every field keeps its own name:
 * `{ ...flowOf({ pointer: output(6) }) }` declares the ports `valid` and `pointer`, and
 * `fieldsOf(io, type)` takes the Flow back out of the io for `connect`. `valid` renames the valid
 * bit for handshakes whose valid has a name of its own (`start`, `dValid`); `description`
 * documents it. A payload field that flows back (an `input`) or is named like the valid bit is an
 * HdlError: a Flow has no backward field.
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
