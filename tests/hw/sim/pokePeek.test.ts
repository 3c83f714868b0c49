import { describe, expect, it } from 'vitest';
import { constant, defineModule, input, output, type PortSpec } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { Simulator, compileDesign } from '../../../hw/sim/simulator.ts';
import { UserError } from '../../../common/errors.ts';

const WIDTHS = [1, 31, 32, 33, 63, 64, 65, 96, 128, 130] as const;

/** Each input straight to an output of the same width, plus one registered copy of the widest. */
const PassThrough = defineModule({
  name: 'PassThrough',
  defaults: {},
  // Port names computed from WIDTHS: a record of ports, whose signals the body looks up by name.
  ports: (): Record<string, PortSpec> => ({
    ...Object.fromEntries(WIDTHS.map((width) => [`i${width}`, input(width)])),
    ...Object.fromEntries(WIDTHS.map((width) => [`o${width}`, output(width)])),
    held: output(130),
  }),
  build(m, ports) {
    for (const width of WIDTHS) ports[`o${width}`]!.set(ports[`i${width}`]!);
    const held = m.reg('held_reg', 130, { reset: (1n << 129n) | 5n });
    held.set(ports.i130!);
    ports.held!.set(held);
  },
});

describe('Simulator poke/peek at word boundaries', () => {
  it('round-trips numbers and bigints at every width, including all-ones and the top bit', () => {
    const simulator = new Simulator(elaborate(PassThrough));
    for (const width of WIDTHS) {
      const all = (1n << BigInt(width)) - 1n;
      for (const value of [0n, 1n, all, 1n << BigInt(width - 1), all >> 1n]) {
        simulator.poke(`i${width}`, value);
        expect(simulator.peek(`o${width}`)).toBe(value);
        if (width <= 32) {
          simulator.poke(`i${width}`, Number(value));
          expect(simulator.peekNumber(`o${width}`)).toBe(Number(value));
        }
      }
    }
  });

  it('rejects values that do not fit, by number or bigint', () => {
    const simulator = new Simulator(elaborate(PassThrough));
    expect(() => simulator.poke('i32', 2 ** 32)).toThrow(UserError);
    expect(() => simulator.poke('i32', -1)).toThrow(UserError);
    expect(() => simulator.poke('i65', 1n << 65n)).toThrow(UserError);
    expect(() => simulator.poke('o32', 1)).toThrow(UserError);
    expect(() => simulator.peek('nothing')).toThrow(UserError);
  });

  it('resets and clocks a 130-bit register', () => {
    const simulator = new Simulator(elaborate(PassThrough));
    simulator.reset();
    expect(simulator.peek('held')).toBe((1n << 129n) | 5n);
    simulator.poke('i130', (1n << 130n) - 2n);
    expect(simulator.peek('held')).toBe((1n << 129n) | 5n);
    simulator.step();
    expect(simulator.peek('held')).toBe((1n << 130n) - 2n);
    expect(simulator.peek('held_reg')).toBe((1n << 130n) - 2n);
  });

  it('keeps the state of simulators that share one compiled design apart (registers, memories, constants)', () => {
    const Scratch = defineModule({
      name: 'Scratch',
      defaults: {},
      ports: () => ({
        address: input(2),
        data: input(8),
        write: input(1),
        read: output(8),
        count: output(8),
        seven: output(8),
      }),
      build(m, io) {
        const memory = m.memory('words', { depth: 4, width: 8 });
        memory.write(io.address, io.data, io.write);
        io.read.set(memory.read(io.address));
        const count = m.reg('counter', 8, { reset: 0 });
        count.set(count.add(1));
        io.count.set(count);
        io.seven.set(constant(7, 8));
      },
    });
    const design = compileDesign(elaborate(Scratch));
    const [first, second] = [new Simulator(design), new Simulator(design)] as const;
    first.reset();
    second.reset();
    first.poke('address', 1);
    first.poke('data', 0xaa);
    first.poke('write', 1);
    first.step(3);
    second.poke('address', 1);
    second.step();
    first.poke('write', 0);
    expect([first.peek('read'), second.peek('read')]).toEqual([0xaan, 0n]);
    expect([first.peek('count'), second.peek('count')]).toEqual([3n, 1n]);
    expect([first.peek('seven'), second.peek('seven')]).toEqual([7n, 7n]);
    second.step();
    expect([first.peek('count'), second.peek('count')]).toEqual([3n, 2n]);
  });
});
