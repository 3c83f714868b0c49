import { connect, defineModule, flip, output, vec } from '../../../api/index.ts';
import { flowOf } from '../../../api/index.ts';
import { DECODER_DEFAULTS, DECODER_PARAMETER_DOCS, decoderWidths, validateDecoderParams } from './parameters.ts';
import { operandSelectPorts } from './registerIndexEmitter.ts';
import { DensePointerIncrementer } from './densePointerIncrementer.ts';
import { BitmapThreadSlice } from './bitmapThreadSlice.ts';

/** The decoder's shape parameters, as the Flow types below take them. */
type DecoderShapeParams = { readonly threads: number; readonly tileLength: number; readonly slots: number };

/**
 * The MMA start into the decoder, a valid-only stream (Flow) from its producer's side: `start` is
 * the valid bit and every thread's bitmap the payload. There is no ready: `start` in the last
 * cycle of an MMA chains the next with no bubble, earlier it restarts.
 */
export function decoderStartFlow(p: DecoderShapeParams) {
  return flowOf(
    {
      bitmap: vec(p.threads, output(p.tileLength, "thread t's row-tile bitmap, bit c ↔ column c (docs/spec.md §3.2)")),
    },
    { valid: 'start', description: 'begin an MMA: load bitmap_* at this edge; operands from the next cycle' },
  );
}

/**
 * The decoder's output, a Flow: in each cycle of an MMA (`valid`) the dense-vector pointer and
 * every thread's operand selects, with the MMA's first and last cycle marked. Its consumer (the
 * MmaUnit's lanes) takes every word; nothing flows back.
 */
export function decodedFlow(p: DecoderShapeParams) {
  const widths = decoderWidths(p);
  return flowOf(
    {
      first: output(1, 'first cycle of an MMA'),
      last: output(1, 'last cycle of an MMA; start may be asserted now (no bubble)'),
      pointer: output(widths.pointer, 'first of the slots consecutive B elements broadcast this cycle'),
      operand: vec(p.threads, vec(p.slots, operandSelectPorts(widths.register))),
    },
    { description: "this cycle's operand selects and pointer belong to an MMA" },
  );
}

/**
 * Paper Fig. 14: the warp's bitmap decoder. `start` loads every thread's bitmap; from the next
 * cycle on, for tileLength/slots cycles, it presents per thread the `slots` operand selects and
 * the dense-vector pointer of that cycle. `start` in the last cycle chains the next MMA with no
 * bubble; `start` earlier restarts; `reset` returns to idle. Both sides are Flows:
 * `decoderStartFlow` in, `decodedFlow` out.
 */
export const BitmapDecoder = defineModule({
  name: 'BitmapDecoder',
  description: 'Coruscant bitmap decoder: per cycle, per thread, the operand selects of one m32n1k64 MMA (sequential)',
  defaults: { ...DECODER_DEFAULTS },
  parameterDocs: DECODER_PARAMETER_DOCS,
  validate: validateDecoderParams,
  ports: (p) => ({ ...flip(decoderStartFlow(p)), ...decodedFlow(p) }),
  build(m, io, p) {
    const sequencer = m.instance(DensePointerIncrementer, {
      name: 'dense_pointer',
      params: { tileLength: p.tileLength, slots: p.slots },
    });
    sequencer.start.set(io.start);
    io.valid.set(sequencer.active);
    io.first.set(sequencer.first);
    io.last.set(sequencer.last);
    io.pointer.set(sequencer.pointer);

    io.bitmap.forEach((bitmap, thread) => {
      const slice = m.instance(BitmapThreadSlice, {
        name: `thread_${thread}`,
        params: { tileLength: p.tileLength, slots: p.slots },
      });
      slice.start.set(io.start);
      slice.bitmap.set(bitmap);
      connect(io.operand[thread]!, slice.operand);
    });
  },
});
