import { defineModule, input, output } from '../../../api/index.ts';
import { DECODER_DEFAULTS, DECODER_PARAMETER_DOCS, decoderWidths, validateDecoderParams } from './parameters.ts';

/**
 * Paper Fig. 14 ❻: one per warp. Walks the dense vector B in chunks of `slots` elements, one
 * chunk per cycle, and doubles as the MMA's sequencer (active, first, last).
 */
export const DensePointerIncrementer = defineModule({
  name: 'DensePointerIncrementer',
  description: 'Dense-vector chunk pointer and MMA sequencer, shared per warp (sequential)',
  defaults: { tileLength: DECODER_DEFAULTS.tileLength, slots: DECODER_DEFAULTS.slots },
  parameterDocs: { tileLength: DECODER_PARAMETER_DOCS.tileLength, slots: DECODER_PARAMETER_DOCS.slots },
  validate: validateDecoderParams,
  ports: (p) => ({
    start: input(1, 'begin an MMA: its first chunk is presented in the next cycle; restarts a running one'),
    active: output(1, 'this cycle belongs to an MMA'),
    pointer: output(decoderWidths(p).pointer, 'index of the first of the slots B elements of this cycle; 0 when idle'),
    first: output(1, 'first cycle of an MMA (pointer 0)'),
    last: output(1, 'last cycle of an MMA; start may be asserted now for a back-to-back MMA'),
  }),
  build(m, io, p) {
    const { pointer: pointerWidth } = decoderWidths(p);
    const active = m.reg('running', 1, { reset: 0 });
    const pointer = m.reg('chunk', pointerWidth, { reset: 0 });
    const atLast = pointer.eq(p.tileLength - p.slots);
    m.when(io.start, () => {
      active.set(1);
      pointer.set(0);
    }).elsewhen(active, () => {
      // Back to 0 after the last chunk, so an idle pointer reads 0 even for tile lengths that are not powers of two.
      m.when(atLast, () => {
        active.set(0);
        pointer.set(0);
      }).otherwise(() => pointer.set(pointer.add(p.slots)));
    });
    io.active.set(active);
    io.pointer.set(pointer);
    io.first.set(active.and(pointer.eq(0)));
    io.last.set(active.and(atLast));

    // Invariants (docs/verification.md): the pointer walks 0, slots, …, tileLength − slots, once per MMA.
    const lastPointer = p.tileLength - p.slots;
    m.assert(pointer.le(lastPointer), 'the dense pointer stays inside the tile');
    m.assert(pointer.bits(Math.log2(p.slots) - 1, 0).eq(0), 'the dense pointer is a multiple of slots');
    m.assert(active.or(pointer.eq(0)), 'the dense pointer is 0 while idle');
    m.assert(
      m
        .past(io.start)
        .not()
        .or(active.and(pointer.eq(0))),
      'an MMA starts at pointer 0 the cycle after start',
    );
    m.assert(
      m
        .past(active.and(atLast.not()).and(io.start.not()))
        .not()
        .or(active.and(pointer.eq(m.past(pointer).add(p.slots)))),
      'the dense pointer steps by slots inside an MMA',
    );
    m.assert(m.past(active.and(atLast).and(io.start.not())).not().or(active.not()), 'idle after last unless restarted');
    m.cover(active.and(atLast), 'mma_done');
  },
});
