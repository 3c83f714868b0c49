import { cat, constant, defineBlackBox, defineModule, flip, input, mux, output, type Value } from '../core/index.ts';
import { fire, Stream } from '../lib/stream/index.ts';

/** One CRC-8 step in the DSL: the black box's behavioural model for the in-process engine. */
function crcStep(crc: Value, data: Value): Value {
  let state = crc.xor(data);
  for (let bit = 0; bit < 8; bit++) {
    const shifted = cat(state.bits(6, 0), constant(0, 1));
    state = mux(state.bit(7), shifted.xor(0x07), shifted);
  }
  return state;
}

/** An existing Verilog module (hw/examples/verilog/Crc8Step.v), its ports declared here. */
export const Crc8Step = defineBlackBox({
  name: 'Crc8Step',
  description: 'CRC-8 (0x07) of one byte, from an existing Verilog file',
  file: './verilog/Crc8Step.v',
  ports: () => ({ crc_in: input(8), data: input(8), crc_out: output(8) }),
  model: (m, io) => io.crc_out.set(crcStep(io.crc_in, io.data)),
});

/** The same Verilog module with no model: runs on Verilator and Icarus, refused on ts. */
export const Crc8StepUnmodelled = defineBlackBox({
  name: 'Crc8Step',
  file: './verilog/Crc8Step.v',
  ports: () => ({ crc_in: input(8), data: input(8), crc_out: output(8) }),
});

/** A CRC-8 over a byte stream, through the black box; `clear` starts a new message. */
export const Crc8Stream = defineModule({
  name: 'Crc8Stream',
  description: 'CRC-8 of a byte stream through a black-box Verilog step (with a TypeScript model)',
  defaults: { modelled: true as boolean },
  parameterDocs: { modelled: 'use the black box with its TypeScript model (false: Verilog engines only)' },
  ports: () => ({ in: flip(Stream(8)), clear: input(1), crc: output(8) }),
  build(m, io, p) {
    const crc = m.reg('state', 8, { reset: 0 });
    const step = m.instance(p.modelled ? Crc8Step : Crc8StepUnmodelled, { name: 'step' });
    step.crc_in.set(crc);
    step.data.set(io.in.data);
    io.in.ready.set(m.lit(1, 1));
    m.when(io.clear, () => crc.set(m.lit(0, 8))).elsewhen(fire(io.in), () => crc.set(step.crc_out));
    io.crc.set(crc);
  },
});

/** The golden model: CRC-8 (0x07) of bytes, as software computes it. */
export function crc8(bytes: readonly number[], start = 0): number {
  let crc = start;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}
