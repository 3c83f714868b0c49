import { defineModule, input, output, vec, constant } from '../../../api/index.ts';
import { DECODER_DEFAULTS, DECODER_PARAMETER_DOCS, decoderWidths, validateDecoderParams } from './parameters.ts';

/**
 * Paper Fig. 14 ❸: looks at this cycle's bitmap bits (lowest first) and tells, per slot, whether
 * it holds a nonzero and how many nonzeros sit in the slots below it — the offset of that slot's
 * value from the thread's running count.
 */
export const LaneDetector = defineModule({
  name: 'LaneDetector',
  description: 'Per-cycle lane detector of the bitmap decoder: valid slots and their ranks (combinational)',
  defaults: { slots: DECODER_DEFAULTS.slots },
  parameterDocs: { slots: DECODER_PARAMETER_DOCS.slots },
  validate: validateDecoderParams,
  ports: (p) => {
    const widths = decoderWidths({ tileLength: 2 * p.slots, slots: p.slots });
    return {
      bits: input(p.slots, "this cycle's bitmap bits; bit j ↔ slot j (column base+j)"),
      valid: output(p.slots, 'valid[j] = bits[j]: slot j holds a nonzero'),
      rank: vec(p.slots, output(widths.rank, 'valid slots below slot j')),
      count: output(widths.count, 'valid slots in this cycle (popcount of bits)'),
    };
  },
  build(m, io, p) {
    const { rank: rankWidth, count: countWidth } = decoderWidths({ tileLength: 2 * p.slots, slots: p.slots });
    io.valid.set(io.bits);
    // A prefix-sum chain: slot j's rank is the previous slot's rank plus the previous slot's bit.
    let below = constant(0, countWidth);
    for (let slot = 0; slot < p.slots; slot++) {
      io.rank[slot]!.set(below.trunc(rankWidth));
      below = below.add(io.bits.bit(slot).zext(countWidth));
    }
    io.count.set(below);

    // Invariants: what the mutation flow's context miter had to establish (rank_j ≤ j), stated here.
    // (A rank whose width cannot exceed its slot needs no check: Verilator would call it constant.)
    io.rank.forEach(
      (rank, slot) =>
        2 ** rankWidth - 1 > slot &&
        m.assert(rank.zext(countWidth).le(slot), `rank of slot ${slot} is at most ${slot}`),
    );
    m.assert(below.le(p.slots), 'the popcount is at most slots');
  },
});
