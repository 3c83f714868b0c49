/** The FP building blocks, exhaustively on small widths: leading-zero count and sticky shift. */
import { describe, expect, it } from 'vitest';
import { bitsFor, defineModule, input, output } from '../../../../hw/core/index.ts';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { Simulator } from '../../../../hw/sim/simulator.ts';
import { leadingZeros, saturate, shiftRightSticky } from '../../../../coruscant/designs/fp/lib.ts';

const LeadingZerosProbe = defineModule({
  name: 'LeadingZerosProbe',
  defaults: { width: 8 },
  ports: (p) => ({ x: input<number>(p.width), count: output<number>(bitsFor(p.width)) }),
  build: (_m, io) => io.count.set(leadingZeros(io.x)),
});

const SHIFT_WIDTH = 7;
const ShiftProbe = defineModule({
  name: 'ShiftProbe',
  defaults: {},
  ports: () => ({
    x: input<number>(SHIFT_WIDTH),
    amount: input<number>(4),
    shifted: output<number>(SHIFT_WIDTH),
    saturated: output<number>(2),
  }),
  build: (_m, io) => {
    io.shifted.set(shiftRightSticky(io.x, io.amount));
    io.saturated.set(saturate(io.amount, 2));
  },
});

describe('leadingZeros', () => {
  it.each([1, 2, 3, 5, 8, 11])('counts every %i-bit value, width for zero', (width) => {
    const simulator = new Simulator(elaborate(LeadingZerosProbe, { width }));
    for (let x = 0; x < 2 ** width; x++) {
      simulator.poke('x', x);
      expect(simulator.peekNumber('count'), `x=${x}`).toBe(x === 0 ? width : width - x.toString(2).length);
    }
  });
});

describe('shiftRightSticky and saturate', () => {
  it('shift right keeping lost ones in the LSB, for every value and amount 0…15', () => {
    const simulator = new Simulator(elaborate(ShiftProbe));
    for (let x = 0; x < 2 ** SHIFT_WIDTH; x++)
      for (let amount = 0; amount < 16; amount++) {
        simulator.poke('x', x);
        simulator.poke('amount', amount);
        const lost = (x & ((1 << Math.min(amount, SHIFT_WIDTH)) - 1)) !== 0 ? 1 : 0;
        expect(simulator.peekNumber('shifted'), `x=${x} >> ${amount}`).toBe((x >>> amount) | lost);
        expect(simulator.peekNumber('saturated')).toBe(Math.min(amount, 3));
      }
  });
});
