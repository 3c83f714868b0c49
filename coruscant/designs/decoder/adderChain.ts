import { defineModule, input, output, vec } from '../../../api/index.ts';
import { DECODER_DEFAULTS, DECODER_PARAMETER_DOCS, decoderWidths, validateDecoderParams } from './parameters.ts';

/**
 * Paper Fig. 14 ❹: the running count of nonzeros a thread has consumed in this MMA (`base`), and
 * per slot the position of its value in the thread's value array, `base + rank_j`.
 */
export const AdderChain = defineModule({
  name: 'AdderChain',
  description: 'Running nonzero count of one thread and the value index of each slot (sequential)',
  defaults: { tileLength: DECODER_DEFAULTS.tileLength, slots: DECODER_DEFAULTS.slots },
  parameterDocs: { tileLength: DECODER_PARAMETER_DOCS.tileLength, slots: DECODER_PARAMETER_DOCS.slots },
  validate: validateDecoderParams,
  ports: (p) => {
    const widths = decoderWidths(p);
    return {
      start: input(1, 'clear the count at this clock edge (a new MMA begins next cycle)'),
      rank: vec(p.slots, input(widths.rank, 'rank_j from the lane detector')),
      count: input(widths.count, "this cycle's popcount from the lane detector; added at the edge"),
      base: output(widths.base, 'nonzeros consumed before this cycle'),
      index: vec(p.slots, output(widths.index, 'base + rank_j (mod 2^width): value index of slot j')),
    };
  },
  build(m, io, p) {
    const widths = decoderWidths(p);
    const consumed = m.reg('consumed', widths.base, { reset: 0 });
    m.when(io.start, () => consumed.set(0)).otherwise(() => consumed.set(consumed.add(io.count.zext(widths.base))));
    io.base.set(consumed);
    io.rank.forEach((rank, slot) => io.index[slot]!.set(consumed.add(rank.zext(widths.base)).trunc(widths.index)));
  },
});
