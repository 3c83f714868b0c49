import { defineModule, input, output } from 'coruscant-hdl';

/**
 * Adds `value` into a running sum in every cycle `enable` is high (modulo 2^width); `reset`
 * clears it. The sum is a register, so a value added in cycle t shows in `sum` from cycle t+1.
 */
export const Accumulator = defineModule({
  name: 'Accumulator',
  description: 'Running sum of the enabled input values, modulo 2^width',
  defaults: { width: 8 },
  parameterDocs: { width: 'width of the value and of the sum, in bits' },
  validate: (p) => (p.width < 1 || p.width > 64 ? 'width must be 1 to 64' : undefined),
  ports: (p) => ({ enable: input(1), value: input(p.width), sum: output(p.width) }),
  build(m, io, p) {
    const sum = m.reg('total', p.width, { reset: 0 });
    m.when(io.enable, () => sum.set(sum.add(io.value)));
    io.sum.set(sum);
  },
});
