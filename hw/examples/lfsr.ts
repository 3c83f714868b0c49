import { defineModule, input, output, cat } from '../core/index.ts';

/** Maximal-length Fibonacci taps (1-based bit numbers, Xilinx XAPP052) for the widths we offer. */
const TAPS: Readonly<Record<number, readonly number[]>> = {
  8: [8, 6, 5, 4],
  16: [16, 15, 13, 4],
  32: [32, 22, 2, 1],
  64: [64, 63, 61, 60],
};

/** A Fibonacci LFSR (shift left, XOR of taps enters at bit 0); seeded by reset or `load`. */
export const Lfsr = defineModule({
  name: 'Lfsr',
  description: 'Maximal-length Fibonacci LFSR with load',
  defaults: { width: 32 },
  parameterDocs: { width: `register width (${Object.keys(TAPS).join(', ')})` },
  validate: (p) => (TAPS[p.width] ? undefined : `width must be one of ${Object.keys(TAPS).join(', ')}`),
  ports: (p) => ({ load: input(1), seed: input(p.width), enable: input(1), state: output(p.width) }),
  build(m, io, p) {
    const state = m.reg('shift', p.width, { reset: 1 });
    const taps = TAPS[p.width]!.map((tap) => state.bit(tap - 1));
    const feedback = taps.reduce((acc, bit) => acc.xor(bit));
    m.when(io.load, () => state.set(io.seed)).elsewhen(io.enable, () =>
      state.set(cat(state.bits(p.width - 2, 0), feedback)),
    );
    io.state.set(state);
  },
});
