import {
  decoderTimeline,
  type DecoderCycle,
  type DecoderShape,
  type DecoderStimulus,
} from '../golden/models/decoder.ts';
import type { MmaOperands } from './prunedOperands.ts';

/** One clock cycle of a stream of back-to-back sparse MMAs, seen from every block's ports. */
export interface MmaCycle {
  readonly reset: boolean;
  /** The decoder's `start`: the MMA in `started` is loaded at this edge. */
  readonly start: boolean;
  /** The MMA loaded at this cycle's edge (when `start`). */
  readonly started?: MmaOperands;
  /** What the decoder presents this cycle (golden model): selects, pointer, first/last. */
  readonly decoded: DecoderCycle;
  /** The MMA whose chunk `decoded` is (undefined when idle). */
  readonly current?: MmaOperands;
}

/**
 * The cycles of `mmas` run back to back through the decoder's real handshake (docs/decoder.md):
 * reset for `resetCycles`, `start` in the first cycle after it and again in every `last` cycle,
 * so the datapath never idles. What each cycle presents comes from the golden decoder
 * (golden/models/decoder.ts), so the stimulus of a sub-block is what the decoder would feed it.
 */
export function mmaTimeline(
  mmas: Iterator<MmaOperands>,
  shape: DecoderShape,
  cycles: number,
  resetCycles: number,
): MmaCycle[] {
  const perMma = shape.tileLength / shape.slots;
  const stimulus: (DecoderStimulus & { started?: MmaOperands })[] = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    const reset = cycle < resetCycles;
    const start = !reset && (cycle - resetCycles) % perMma === 0;
    const started = start ? (mmas.next().value as MmaOperands) : undefined;
    stimulus.push({ reset, start, ...(started ? { started, bitmaps: started.bitmaps } : {}) });
  }
  const decoded = decoderTimeline(stimulus, shape);
  let current: MmaOperands | undefined;
  return stimulus.map((step, cycle) => {
    // The MMA started at the previous edge is the one on the datapath from this cycle on.
    const previous = stimulus[cycle - 1];
    if (previous?.started) current = previous.started;
    const output = decoded[cycle]!;
    return {
      reset: step.reset ?? false,
      start: step.start ?? false,
      ...(step.started ? { started: step.started } : {}),
      decoded: output,
      ...(output.valid && current ? { current } : {}),
    };
  });
}
