import { defineModule, input, output } from '../core/index.ts';

/** A free-running counter with enable: the smallest sequential design. */
export const Counter = defineModule({
  name: 'Counter',
  description: 'Free-running counter with enable and synchronous reset',
  defaults: { width: 8 },
  parameterDocs: { width: 'counter width in bits' },
  ports: (p) => ({ enable: input(1), count: output(p.width) }),
  build(m, io, p) {
    const value = m.reg('value', p.width, { reset: 0 });
    m.when(io.enable, () => value.set(value.add(1)));
    io.count.set(value);
  },
});
