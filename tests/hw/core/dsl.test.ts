import { describe, expect, it } from 'vitest';
import {
  defineModule,
  input,
  output,
  vec,
  mux,
  cat,
  select,
  constant,
  bitsFor,
  flattenPorts,
  MAX_WIDTH,
  InvalidParameterError,
} from '../../../hw/core/index.ts';
import { elaborate, moduleNameFor } from '../../../hw/ir/elaborate.ts';
import { topModule, type IrDesign } from '../../../hw/ir/ir.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';

const simulate = (design: IrDesign) => new Simulator(design);

describe('DSL building blocks', () => {
  it('bitsFor gives the bits needed for 0..max', () => {
    expect([0, 1, 2, 3, 4, 63, 64, 255, 256].map(bitsFor)).toEqual([1, 1, 2, 2, 3, 6, 7, 8, 9]);
  });

  it('ports: bundles and arrays flatten to name_field_index in declaration order', () => {
    const tree = { op: vec(2, { reg: output(5), zero: output(1) }), start: input(1) };
    expect(flattenPorts(tree).map((port) => `${port.name}:${port.spec.direction}:${port.spec.width}`)).toEqual([
      'op_0_reg:output:5',
      'op_0_zero:output:1',
      'op_1_reg:output:5',
      'op_1_zero:output:1',
      'start:input:1',
    ]);
  });

  it('parameter sets name their modules deterministically', () => {
    const Adder = defineModule({
      name: 'Adder',
      defaults: { width: 8, wrap: true },
      ports: (p) => ({ a: input(p.width), y: output(p.width) }),
      build: (_m, io) => io.y.set(io.a),
    });
    expect(moduleNameFor(Adder, { width: 8, wrap: true })).toBe('Adder');
    expect(moduleNameFor(Adder, { wrap: false, width: 16 })).toBe('Adder_width_16_wrap_false');
    expect(elaborate(Adder, { width: 16 }).top).toBe('Adder_width_16');
    expect(() => elaborate(Adder, { depth: 3 } as never)).toThrow(InvalidParameterError);
  });

  it('mux, cat, select, constant, bits, msb, extensions and addCarry compute what they say', () => {
    const Ops = defineModule({
      name: 'Ops',
      defaults: {},
      ports: () => ({
        a: input(8),
        b: input(8),
        s: input(2),
        pick: output(8),
        joined: output(16),
        selected: output(8),
        top: output(1),
        carry: output(9),
        signed: output(12),
        greater: output(1),
      }),
      build(_m, io) {
        io.pick.set(mux(io.a.gt(io.b), io.a, io.b));
        io.joined.set(cat(io.a, io.b));
        io.selected.set(select(io.s, [io.a, io.b, constant(0x5a, 8), io.a.xor(io.b)]));
        io.top.set(io.a.msb());
        io.carry.set(io.a.addCarry(io.b));
        io.signed.set(io.a.sext(12));
        io.greater.set(io.a.ge(io.b));
      },
    });
    const sim = simulate(elaborate(Ops));
    for (const [a, b, s] of [
      [0x80, 0x7f, 0],
      [3, 250, 1],
      [17, 17, 2],
      [0xff, 0x0f, 3],
    ] as const) {
      sim.poke('a', a);
      sim.poke('b', b);
      sim.poke('s', s);
      expect(sim.peekNumber('pick')).toBe(Math.max(a, b));
      expect(sim.peekNumber('joined')).toBe((a << 8) | b);
      expect(sim.peekNumber('selected')).toBe([a, b, 0x5a, a ^ b][s]);
      expect(sim.peekNumber('top')).toBe(a >> 7);
      expect(sim.peekNumber('carry')).toBe(a + b);
      expect(sim.peekNumber('signed')).toBe(a & 0x80 ? a | 0xf00 : a);
      expect(sim.peekNumber('greater')).toBe(a >= b ? 1 : 0);
    }
  });

  it('when / elsewhen / otherwise: first true condition wins, last assignment within a branch wins', () => {
    const Priority = defineModule({
      name: 'Priority',
      defaults: {},
      ports: () => ({ x: input(1), y: input(1), out: output(4) }),
      build(m, io) {
        const result = m.wire('result', 4);
        result.set(m.lit(0, 4));
        m.when(io.x, () => {
          result.set(m.lit(1, 4));
          result.set(m.lit(2, 4));
        })
          .elsewhen(io.y, () => result.set(m.lit(3, 4)))
          .otherwise(() => result.set(m.lit(4, 4)));
        io.out.set(result);
      },
    });
    const sim = simulate(elaborate(Priority));
    const cases: [number, number, number][] = [
      [1, 1, 2],
      [1, 0, 2],
      [0, 1, 3],
      [0, 0, 4],
    ];
    for (const [x, y, expected] of cases) {
      sim.poke('x', x);
      sim.poke('y', y);
      expect(sim.peekNumber('out')).toBe(expected);
    }
  });

  it('registers hold when not assigned, reset synchronously, and named() shows up as a signal', () => {
    const Holder = defineModule({
      name: 'Holder',
      defaults: {},
      ports: () => ({ load: input(1), value: input(8), out: output(8) }),
      build(m, io) {
        const held = m.reg('held', 8, { reset: 0x42 });
        m.when(io.load, () => held.set(io.value));
        io.out.set(m.named('doubled', held.add(held)));
      },
    });
    const sim = simulate(elaborate(Holder));
    sim.reset();
    expect(sim.peekNumber('out')).toBe(0x84);
    sim.poke('value', 7);
    sim.poke('load', 1);
    sim.step();
    sim.poke('load', 0);
    sim.poke('value', 9);
    sim.step(3);
    expect(sim.peekNumber('held')).toBe(7);
    expect(sim.peekNumber('doubled')).toBe(14);
  });

  it('memories: conditional writes, synchronous reads one cycle late', () => {
    const Store = defineModule({
      name: 'Store',
      defaults: {},
      ports: () => ({ enable: input(1), address: input(2), data: input(8), now: output(8), later: output(8) }),
      build(m, io) {
        const memory = m.memory('words', { depth: 4, width: 8 });
        m.when(io.enable, () => memory.write(io.address, io.data));
        io.now.set(memory.read(io.address));
        io.later.set(memory.readSync(io.address));
      },
    });
    const sim = simulate(elaborate(Store));
    sim.poke('address', 2);
    sim.poke('data', 99);
    sim.poke('enable', 0);
    sim.step();
    expect(sim.peekNumber('now')).toBe(0);
    sim.poke('enable', 1);
    sim.step();
    sim.poke('enable', 0);
    expect(sim.peekNumber('now')).toBe(99);
    expect(sim.peekNumber('later')).toBe(0);
    sim.step();
    expect(sim.peekNumber('later')).toBe(99);
    // Any depth from 1 is a memory (tests/hw/core/memory.test.ts); 0 words is not.
    expect(() =>
      elaborate(
        defineModule({
          name: 'Odd',
          defaults: {},
          ports: () => ({ y: output(1) }),
          build: (m, io) => {
            m.memory('m', { depth: 0, width: 1 });
            io.y.set(0);
          },
        }),
      ),
    ).toThrow(/memory depth 0 must be a whole number from 1 to 2\^20/);
  });

  it('instances: clock and reset are passed down; ports keep their names in the IR', () => {
    const Inner = defineModule({
      name: 'Inner',
      defaults: {},
      ports: () => ({ d: input(4), q: output(4) }),
      build: (m, io) => {
        const r = m.reg('r', 4, { reset: 0 });
        r.set(io.d);
        io.q.set(r);
      },
    });
    const Outer = defineModule({
      name: 'Outer',
      defaults: {},
      ports: () => ({ d: input(4), q: output(4) }),
      build: (m, io) => {
        const inner = m.instance(Inner, { name: 'stage' });
        inner.d.set(io.d);
        io.q.set(inner.q);
      },
    });
    const design = elaborate(Outer);
    expect(design.modules.map((module) => module.name)).toEqual(['Inner', 'Outer']);
    expect(topModule(design).ports.map((port) => port.name)).toEqual(['clk', 'reset', 'd', 'q']);
    const sim = simulate(design);
    sim.poke('d', 5);
    expect(sim.peekNumber('q')).toBe(0);
    sim.step();
    expect(sim.peekNumber('q')).toBe(5);
    expect(sim.peekNumber('stage.r')).toBe(5);
  });

  it('widths up to MAX_WIDTH are simulated exactly', () => {
    const Wide = defineModule({
      name: 'Wide',
      defaults: {},
      ports: () => ({ a: input(4096), y: output(4096) }),
      build: (_m, io) => io.y.set(io.a.add(io.a.not().shr(4095))),
    });
    const sim = simulate(elaborate(Wide));
    const value = (1n << 4095n) | 12345n;
    sim.poke('a', value);
    expect(sim.peek('y')).toBe(value);
    sim.poke('a', 5n);
    expect(sim.peek('y')).toBe(6n);
    expect(MAX_WIDTH).toBeGreaterThanOrEqual(4096);
  });
});
