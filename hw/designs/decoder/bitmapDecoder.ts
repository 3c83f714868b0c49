import { defineModule, input, output, vec } from '../../core/index.ts';
import { DECODER_DEFAULTS, DECODER_PARAMETER_DOCS, decoderWidths, validateDecoderParams } from './parameters.ts';
import { operandSelectPorts } from './registerIndexEmitter.ts';
import { DensePointerIncrementer } from './densePointerIncrementer.ts';
import { BitmapThreadSlice } from './bitmapThreadSlice.ts';

/**
 * Paper Fig. 14: the warp's bitmap decoder. `start` loads every thread's bitmap; from the next
 * cycle on, for tileLength/slots cycles, it presents per thread the `slots` operand selects and
 * the dense-vector pointer of that cycle. `start` in the last cycle chains the next MMA with no
 * bubble; `start` earlier restarts; `reset` returns to idle.
 */
export const BitmapDecoder = defineModule({
  name: 'BitmapDecoder',
  description: 'Coruscant bitmap decoder: per cycle, per thread, the operand selects of one m32n1k64 MMA (sequential)',
  defaults: { ...DECODER_DEFAULTS },
  parameterDocs: DECODER_PARAMETER_DOCS,
  validate: validateDecoderParams,
  ports: (p) => {
    const widths = decoderWidths(p);
    return {
      start: input(1, 'begin an MMA: load bitmap_* at this edge; operands from the next cycle'),
      bitmap: vec(p.threads, input(p.tileLength, "thread t's row-tile bitmap, bit c ↔ column c (docs/spec.md §3.2)")),
      valid: output(1, "this cycle's operand selects and pointer belong to an MMA"),
      first: output(1, 'first cycle of an MMA'),
      last: output(1, 'last cycle of an MMA; start may be asserted now (no bubble)'),
      pointer: output(widths.pointer, 'first of the slots consecutive B elements broadcast this cycle'),
      operand: vec(p.threads, vec(p.slots, operandSelectPorts(widths.register))),
    };
  },
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
      slice.operand.forEach((select, slot) => {
        const out = io.operand[thread]![slot]!;
        out.register.set(select.register);
        out.half.set(select.half);
        out.zero.set(select.zero);
      });
    });
  },
});
