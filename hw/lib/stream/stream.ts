import { bundle, input, output, type IoOf, type ModuleBuilder, type Value } from '../../core/index.ts';

/**
 * A valid-ready stream of `width`-bit words, from the producer's side: `valid` and `data` flow
 * forward, `ready` back. A word moves at a clock edge where both `valid` and `ready` are 1 (it
 * "fires"). The producer keeps `valid` and `data` unchanged until the word fires; `ready` may
 * depend on `valid`, never the other way round. Use `Stream(w)` for a producer's port,
 * `flip(Stream(w))` for a consumer's, `wires(m, name, Stream(w))` inside a module.
 */
export function Stream<W extends number>(width: W) {
  return bundle({ valid: output(1), ready: input(1), data: output(width) });
}

/** The signals of one stream, whichever side. */
export type StreamIo = IoOf<ReturnType<typeof Stream>>;

/** Whether a word moves at this edge: `valid && ready`. */
export function fire(stream: StreamIo): Value<1> {
  return stream.valid.and(stream.ready);
}

/**
 * The stream protocol as assertions on a stream this module produces: once `valid` is up it
 * stays up, with `data` unchanged, until the word fires. Checked by every engine at every edge
 * outside reset (a violation fails the regression case at its cycle).
 */
export function assertStreamProtocol(m: ModuleBuilder, stream: StreamIo, name: string): void {
  const stalled = m.past(stream.valid.and(stream.ready.not()));
  m.assert(stalled.not().or(stream.valid), `${name}: valid held until ready`);
  m.assert(stalled.not().or(m.stable(stream.data)), `${name}: data stable while stalled`);
}
