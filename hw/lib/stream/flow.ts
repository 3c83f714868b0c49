import { bundle, output, type IoOf } from '../../core/index.ts';

/**
 * A valid-only stream of `width`-bit words (SpinalHDL's `Flow`: a Stream without `ready`), from
 * the producer's side: `valid` and `data` flow forward, nothing flows back, and the consumer takes
 * `data` in every cycle `valid` is 1 (it cannot stall the producer). `flip(Flow(w))` is the
 * consumer's port, `wires(m, name, Flow(w))` a Flow inside a module. For a payload of named
 * fields beside the valid bit (ports that keep their own names), see `flowOf` (hw/core/bundle.ts).
 */
export function Flow<W extends number>(width: W) {
  return bundle({ valid: output(1), data: output(width) });
}

/** The signals of one Flow of words, whichever side. */
export type FlowIo = IoOf<ReturnType<typeof Flow>>;
