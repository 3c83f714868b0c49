import { defineModule, input, vec } from '../../../api/index.ts';
import { DECODER_DEFAULTS, DECODER_PARAMETER_DOCS, decoderWidths, validateDecoderParams } from './parameters.ts';
import { LaneDetector } from './laneDetector.ts';
import { AdderChain } from './adderChain.ts';
import { RegisterIndexEmitter, operandSelectPorts } from './registerIndexEmitter.ts';

/**
 * One thread's part of the bitmap decoder: the thread's bitmap, consumed lowest bits first
 * (docs/spec.md §3.2 is LSB first for exactly this reason), through lane detector → adder chain →
 * register index emitter.
 */
export const BitmapThreadSlice = defineModule({
  name: 'BitmapThreadSlice',
  description: "One thread's bitmap shift register, lane detector, adder chain and register index emitter (sequential)",
  defaults: { tileLength: DECODER_DEFAULTS.tileLength, slots: DECODER_DEFAULTS.slots },
  parameterDocs: { tileLength: DECODER_PARAMETER_DOCS.tileLength, slots: DECODER_PARAMETER_DOCS.slots },
  validate: validateDecoderParams,
  ports: (p) => ({
    start: input(1, 'load bitmap at this edge; its first chunk is decoded in the next cycle'),
    bitmap: input(p.tileLength, "the thread's row-tile bitmap, bit c ↔ column c; sampled when start"),
    operand: vec(p.slots, operandSelectPorts(decoderWidths(p).register)),
  }),
  build(m, io, p) {
    // Shifting in zeros: once the tile is consumed (or after reset) every slot is a zero fill and
    // the count stops advancing, so the slice needs no knowledge of whether an MMA is running.
    const pending = m.reg('pending', p.tileLength, { reset: 0 });
    m.when(io.start, () => pending.set(io.bitmap)).otherwise(() => pending.set(pending.shr(p.slots)));

    const lanes = m.instance(LaneDetector, { name: 'lanes', params: { slots: p.slots } });
    lanes.bits.set(pending.bits(p.slots - 1, 0));

    const chain = m.instance(AdderChain, { name: 'chain', params: p });
    chain.start.set(io.start);
    chain.count.set(lanes.count);
    lanes.rank.forEach((rank, slot) => chain.rank[slot]!.set(rank));

    const emitter = m.instance(RegisterIndexEmitter, { name: 'emitter', params: p });
    emitter.valid.set(lanes.valid);
    chain.index.forEach((index, slot) => emitter.index[slot]!.set(index));
    emitter.operand.forEach((select, slot) => {
      const out = io.operand[slot]!;
      out.register.set(select.register);
      out.half.set(select.half);
      out.zero.set(select.zero);
    });

    // Invariants (docs/verification.md): the count never passes the tile, every full slot reads a
    // value of the tile (so its register index is in range), and exactly the empty slots are zero-filled.
    const widths = decoderWidths(p);
    m.assert(chain.base.le(p.tileLength), 'base is at most the tile length');
    emitter.operand.forEach((select, slot) => {
      // The value index base + rank_j, unwrapped: a full slot names a value inside the tile.
      const unwrapped = chain.base.add(lanes.rank[slot]!.zext(widths.base));
      m.assert(pending.bit(slot).not().or(unwrapped.lt(p.tileLength)), `slot ${slot} reads a value of the tile`);
      m.assert(select.zero.eq(pending.bit(slot).not()), `slot ${slot} is zero-filled exactly when empty`);
    });
    m.assert(
      chain.base.add(lanes.count.zext(widths.base)).le(p.tileLength),
      "base plus this cycle's popcount is at most the tile length",
    );
  },
});
