import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { constant, defineModule, input, output, mux, type Value } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { compileDesign, Simulator } from '../../../hw/sim/simulator.ts';
import { flattenDesign } from '../../../hw/sim/flatten.ts';
import { simplifyFlat } from '../../../hw/sim/simplifyFlat.ts';
import { chooseInstanceGroups, groupedOrder, GROUP_CELLS } from '../../../hw/sim/instanceGroups.ts';
import { groupedCellOrder } from '../../../hw/sim/cellOrder.ts';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import { runReference } from '../../../verif/fuzz/referenceSimulator.ts';
import { fastCheckSeed } from '../../support/seed.ts';
import type { PortValues } from '../../../hw/contract/engine.ts';

const seed = fastCheckSeed('instance-groups');

/** Enough mixed logic (> GROUP_CELLS.min cells) to be grouped, with a named wire and a register. */
const Mixer = defineModule({
  name: 'Mixer',
  defaults: {},
  ports: () => ({ a: input(16), b: input(16), y: output(16), z: output(16) }),
  build(m, io) {
    let value: Value<number> = io.a.xor(io.b);
    for (let round = 0; round < 6; round++)
      value = mux(value.bit(round), value.add(io.b).shl(1), value.sub(io.a).shr(1)).xor(constant(round * 77, 16));
    const mixed = m.named('mixed', value);
    const held = m.reg('held', 16, { reset: 3 });
    held.set(held.add(mixed));
    io.y.set(mixed);
    io.z.set(held);
  },
});

/** Four Mixers: two chained, one with a constant input (passed like any other), one reading a register. */
const Mixers = defineModule({
  name: 'Mixers',
  defaults: {},
  ports: () => ({ a: input(16), b: input(16), y0: output(16), y1: output(16), y2: output(16), z: output(16) }),
  build(m, io) {
    const first = m.instance(Mixer, { name: 'first' });
    first.a.set(io.a);
    first.b.set(io.b);
    const second = m.instance(Mixer, { name: 'second' });
    second.a.set(first.y);
    second.b.set(io.a);
    const tied = m.instance(Mixer, { name: 'tied' });
    tied.a.set(constant(0x1234, 16));
    tied.b.set(io.b);
    const fourth = m.instance(Mixer, { name: 'fourth' });
    fourth.a.set(io.b);
    fourth.b.set(second.z);
    io.y0.set(second.y);
    io.y1.set(tied.y);
    io.y2.set(fourth.y);
    io.z.set(first.z.xor(fourth.z));
  },
});

/**
 * An instance whose second output feeds its own second input through the parent: the instance
 * as a whole is in a combinational cycle, though none of its cells is. It cannot be one group.
 */
const TwoPaths = defineModule({
  name: 'TwoPaths',
  defaults: {},
  ports: () => ({ a: input(16), c: input(16), y: output(16), d: output(16) }),
  build(m, io) {
    let value: Value<number> = io.a;
    for (let round = 0; round < 8; round++) value = value.add(constant(round + 1, 16)).xor(io.a.shr(round));
    io.y.set(value);
    let other: Value<number> = io.c;
    for (let round = 0; round < 8; round++) other = other.sub(constant(round + 3, 16)).xor(io.c.shl(round));
    io.d.set(other);
  },
});

const Loops = defineModule({
  name: 'Loops',
  defaults: {},
  ports: () => ({ a: input(16), y0: output(16), y1: output(16), y2: output(16) }),
  build(m, io) {
    const left = m.instance(TwoPaths, { name: 'left' });
    const right = m.instance(TwoPaths, { name: 'right' });
    left.a.set(io.a);
    left.c.set(left.y.add(1));
    right.a.set(left.d);
    right.c.set(right.y.xor(io.a));
    const plain = m.instance(TwoPaths, { name: 'plain' });
    plain.a.set(right.d);
    plain.c.set(left.y);
    io.y0.set(left.d);
    io.y1.set(right.d);
    io.y2.set(plain.y.xor(plain.d));
  },
});

const stimulusArbitrary = (names: readonly string[], cycles: number): fc.Arbitrary<PortValues[]> =>
  fc.array(fc.record(Object.fromEntries(names.map((name) => [name, fc.bigInt({ min: 0n, max: 0xffffn })]))), {
    minLength: cycles,
    maxLength: cycles,
  });

describe('instance groups (one generated function per distinct instance body)', () => {
  it('shares one function between the instances that simplify alike, and equals the interpreter', async () => {
    const design = elaborate(Mixers);
    const compiled = compileDesign(design);
    const functions = compiled.source.match(/^function g\d+\(/gm) ?? [];
    const calls = compiled.source.match(/\bg\d+\(\d+/g) ?? [];
    // All four share one body: the constant into `tied` is a word of the state like any input.
    expect(functions).toHaveLength(1);
    expect(calls).toHaveLength(4);
    const engine = new TsEngine();
    await fc.assert(
      fc.asyncProperty(stimulusArbitrary(['a', 'b'], 10), async (rows) => {
        const stimulus = rows.map((row, cycle) => ({ ...row, reset: cycle === 0 ? 1n : 0n }));
        expect((await engine.run(design, stimulus)).outputs).toEqual(runReference(design, stimulus));
      }),
      { seed, numRuns: 40 },
    );
  });

  it('generates the same source from two elaborations of one design', () => {
    for (const definition of [Mixers, Loops])
      expect(compileDesign(elaborate(definition)).source).toBe(compileDesign(elaborate(definition)).source);
  });

  it('keeps every instance signal peekable at its own words', () => {
    const simulator = new Simulator(elaborate(Mixers));
    simulator.reset();
    simulator.poke('a', 0x0f0f);
    simulator.poke('b', 0x1234);
    expect(simulator.peek('first.y')).toBe(simulator.peek('second.a'));
    expect(simulator.peek('first.mixed')).toBe(simulator.peek('first.y'));
    expect(simulator.peek('second.y')).toBe(simulator.peek('y0'));
    expect(simulator.peek('fourth.y')).toBe(simulator.peek('y2'));
    expect(simulator.peek('first.held')).toBe(3n);
    const mixed = simulator.peek('first.mixed');
    simulator.step();
    expect(simulator.peek('first.held')).toBe((3n + mixed) & 0xffffn);
    expect(simulator.peek('first.mixed')).toBe(mixed);
  });

  it('evaluates an instance cell by cell when a combinational path leaves it and comes back', async () => {
    const design = elaborate(Loops);
    const flat = simplifyFlat(flattenDesign(design));
    const candidates = chooseInstanceGroups(flat);
    expect(candidates.netLow).toHaveLength(3);
    const cycle = groupedCellOrder(flat.nets.length, flat.cells, candidates.groupOf, 3);
    // left and right feed themselves through the parent; plain does not.
    const name = (group: number): string => flat.nets.instances[candidates.instance[group]!]!.scope.join('.');
    expect('cyclic' in cycle && cycle.cyclic.map(name).sort()).toEqual(['left', 'right']);
    const { groups } = groupedOrder(flat);
    expect([...groups.instance].map((instance) => flat.nets.instances[instance]!.scope.join('.'))).toEqual(['plain']);
    const engine = new TsEngine();
    await fc.assert(
      fc.asyncProperty(stimulusArbitrary(['a'], 4), async (stimulus) => {
        expect((await engine.run(design, stimulus)).outputs).toEqual(runReference(design, stimulus));
      }),
      { seed, numRuns: 20 },
    );
  });

  it('lists each group as one run of cells, every cell once, after the cells it reads', () => {
    const flat = simplifyFlat(flattenDesign(elaborate(Mixers)));
    const { order, groups } = groupedOrder(flat);
    expect([...order].sort((x, y) => x - y)).toEqual(Array.from({ length: flat.cells.length }, (_, index) => index));
    const runs = order.map((cell) => groups.groupOf[cell]!).filter((group, at, all) => group !== all[at - 1]);
    expect(runs.filter((group) => group >= 0).sort()).toEqual([0, 1, 2, 3]);
    const position = new Int32Array(flat.cells.length);
    order.forEach((cell, at) => (position[cell] = at));
    const driver = new Map<number, number>();
    for (let cell = 0; cell < flat.cells.length; cell++) driver.set(flat.cells.output(cell), cell);
    for (let cell = 0; cell < flat.cells.length; cell++)
      for (let input = 0; input < flat.cells.inputCount(cell); input++) {
        const source = driver.get(flat.cells.input(cell, input));
        if (source !== undefined) expect(position[source]).toBeLessThan(position[cell]!);
      }
    expect(GROUP_CELLS.min).toBeLessThan(GROUP_CELLS.max);
  });
});
