import { defineModule, input, output, vec, mux } from '../../../api/index.ts';
import { DECODER_DEFAULTS, DECODER_PARAMETER_DOCS, decoderWidths, validateDecoderParams } from './parameters.ts';

/** One operand select: which register half feeds a multiplier slot, or a zero fill. */
export const operandSelectPorts = (registerWidth: number) => ({
  register: output(registerWidth, 'register of the value array (two FP16 per 32-bit register); 0 when zero'),
  half: output(1, '1 = high half (odd value index); 0 when zero'),
  zero: output(1, 'slot has no nonzero: the multiplier gets +0'),
});

/**
 * Paper Fig. 14 ❺: turns value indices into register-file reads — value v lives in register
 * v >> 1, high half when v is odd (docs/spec.md §3.2) — and zero-fills empty slots so the lane always
 * receives `slots` operands per cycle.
 */
export const RegisterIndexEmitter = defineModule({
  name: 'RegisterIndexEmitter',
  description: 'Value indices to register address, half select and zero-fill flag per slot (combinational)',
  defaults: { tileLength: DECODER_DEFAULTS.tileLength, slots: DECODER_DEFAULTS.slots },
  parameterDocs: { tileLength: DECODER_PARAMETER_DOCS.tileLength, slots: DECODER_PARAMETER_DOCS.slots },
  validate: validateDecoderParams,
  ports: (p) => {
    const widths = decoderWidths(p);
    return {
      valid: input(p.slots, 'valid[j]: slot j holds a nonzero'),
      index: vec(p.slots, input(widths.index, 'value index of slot j')),
      operand: vec(p.slots, operandSelectPorts(widths.register)),
    };
  },
  build(m, io, p) {
    const widths = decoderWidths(p);
    io.operand.forEach((operand, slot) => {
      const valid = io.valid.bit(slot);
      const index = io.index[slot]!;
      // Empty slots read register 0, low half: a fixed, harmless address instead of a stale one.
      operand.register.set(mux(valid, index.bits(widths.index - 1, 1), 0));
      operand.half.set(valid.and(index.bit(0)));
      operand.zero.set(valid.not());
    });
  },
});
