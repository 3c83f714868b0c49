import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defineModule, input, output } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { flattenDesign } from '../../../hw/sim/flatten.ts';
import { simplifyFlat } from '../../../hw/sim/simplifyFlat.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';

/** Slices of slices across an instance boundary, and an instance output nobody reads. */
const Halves = defineModule({
  name: 'Halves',
  defaults: {},
  ports: () => ({ a: input(70), high: output(35), low: output(35), unused: output(70) }),
  build(_m, io) {
    io.high.set(io.a.bits(69, 35));
    io.low.set(io.a.bits(34, 0));
    io.unused.set(io.a.add(io.a));
  },
});

const Picker = defineModule({
  name: 'Picker',
  defaults: {},
  ports: () => ({ a: input(70), y: output(12), z: output(1) }),
  build(m, io) {
    const halves = m.instance(Halves, { name: 'halves' });
    halves.a.set(io.a);
    // Bits 42..53 of a, reached through two slices and a port buffer.
    io.y.set(halves.high.bits(20, 2).bits(16, 5));
    io.z.set(halves.low.bits(33, 1).bit(32));
  },
});

describe('simplifyFlat', () => {
  it('slices the source directly and drops cells nothing observes', () => {
    const flat = flattenDesign(elaborate(Picker));
    const simplified = simplifyFlat(flat);
    const cells = [...simplified.cells];
    const driver = new Map(cells.map((cell) => [cell.output, cell]));
    for (const cell of cells.filter((each) => each.op === 'slice'))
      expect(driver.get(cell.inputs[0]!)?.op).not.toBe('slice');
    // The adder drives the named output `halves.unused`, so it stays; only unobserved nodes go.
    expect(cells.some((cell) => cell.op === 'add')).toBe(true);
    expect(simplified.cells.length).toBeLessThan(flat.cells.length);
  });

  it('keeps the behaviour: y is a[53:42], z is a[33]', () => {
    const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
    console.log(`simplifyFlat: seed ${seed} (replay with FC_SEED=${seed})`);
    const simulator = new Simulator(elaborate(Picker));
    fc.assert(
      fc.property(fc.bigInt(0n, (1n << 70n) - 1n), (a) => {
        simulator.poke('a', a);
        expect(simulator.peek('y')).toBe((a >> 42n) & 0xfffn);
        expect(simulator.peek('z')).toBe((a >> 33n) & 1n);
        expect(simulator.peek('halves.high')).toBe(a >> 35n);
      }),
      { seed, numRuns: 200 },
    );
  });
});
