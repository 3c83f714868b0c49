import { defineModule, input, output } from '../../hw/core/index.ts';

/**
 * The engines' frame tests' design: wide and narrow ports, a register and a combinational path,
 * so frames carry 1-, 2- and 3-word values and cycles matter.
 */
export const FrameWidths = defineModule({
  name: 'FrameWidths',
  defaults: {},
  ports: () => ({
    narrow: input(3),
    wide: input(70),
    sum: output(70),
    held: output(3),
    doubled: output(40),
  }),
  build(m, io) {
    const last = m.reg('last', 3, { reset: 0 });
    last.set(io.narrow);
    io.held.set(last);
    io.sum.set(io.wide.add(io.narrow.zext(70)));
    io.doubled.set(io.wide.trunc(39).zext(40).shl(1));
  },
});
