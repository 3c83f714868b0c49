import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
import { Counter } from '../../../hw/examples/counter.ts';
import { Popcount } from '../../../hw/examples/popcount.ts';
import { Lfsr } from '../../../hw/examples/lfsr.ts';
import { RegisterFile } from '../../../hw/examples/registerFile.ts';
import { MacPipeline } from '../../../hw/examples/macPipeline.ts';
import { fastCheckSeed } from '../../support/seed.ts';

const seed = fastCheckSeed('examples');

describe('example designs on the in-process simulator', () => {
  it('Counter counts enabled cycles and wraps', () => {
    const sim = new Simulator(elaborate(Counter, { width: 4 }));
    sim.reset();
    sim.poke('enable', 1);
    sim.step(17);
    expect(sim.peek('count')).toBe(1n);
    sim.poke('enable', 0);
    sim.step(3);
    expect(sim.peek('count')).toBe(1n);
  });

  it('Popcount equals a software popcount on random 64-bit words', () => {
    const sim = new Simulator(elaborate(Popcount));
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (word) => {
        sim.poke('value', word);
        expect(sim.peek('count')).toBe(
          BigInt(
            word
              .toString(2)
              .split('')
              .filter((bit) => bit === '1').length,
          ),
        );
      }),
      { seed, numRuns: 500 },
    );
  });

  it('Lfsr follows the Fibonacci recurrence and has the maximal period at 8 bits', () => {
    const sim = new Simulator(elaborate(Lfsr, { width: 8 }));
    sim.reset();
    sim.poke('enable', 1);
    let model = 1;
    const seen = new Set<number>();
    for (let cycle = 0; cycle < 255; cycle++) {
      expect(sim.peekNumber('state')).toBe(model);
      seen.add(model);
      const feedback = ((model >> 7) ^ (model >> 5) ^ (model >> 4) ^ (model >> 3)) & 1;
      model = ((model << 1) | feedback) & 0xff;
      sim.step();
    }
    expect(seen.size).toBe(255);
    expect(sim.peekNumber('state')).toBe(1);
  });

  it('RegisterFile reads back what was written, with two independent read ports', () => {
    const sim = new Simulator(elaborate(RegisterFile, { depth: 8, width: 40 }));
    const model = new Array<bigint>(8).fill(0n);
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.boolean(), fc.nat(7), fc.bigInt({ min: 0n, max: (1n << 40n) - 1n }), fc.nat(7), fc.nat(7)),
          { maxLength: 40 },
        ),
        (ops) => {
          for (const [enable, address, data, read0, read1] of ops) {
            sim.poke('write_enable', enable ? 1 : 0);
            sim.poke('write_address', address);
            sim.poke('write_data', data);
            sim.poke('read_0_address', read0);
            sim.poke('read_1_address', read1);
            expect(sim.peek('read_0_data')).toBe(model[read0]);
            expect(sim.peek('read_1_data')).toBe(model[read1]);
            sim.step();
            if (enable) model[address] = data;
          }
        },
      ),
      { seed, numRuns: 50 },
    );
  });

  it('MacPipeline accumulates products two cycles later and clears', () => {
    const sim = new Simulator(elaborate(MacPipeline));
    sim.reset();
    const inputs = [
      { valid: 1, clear: 1, a: 3, b: 4 },
      { valid: 1, clear: 0, a: 5, b: 6 },
      { valid: 0, clear: 0, a: 100, b: 100 },
      { valid: 1, clear: 0, a: 0xffff, b: 0xffff },
      { valid: 0, clear: 0, a: 0, b: 0 },
      { valid: 0, clear: 0, a: 0, b: 0 },
    ];
    const seenAccumulator: bigint[] = [];
    for (const cycle of inputs) {
      for (const [name, value] of Object.entries(cycle)) sim.poke(name, value);
      seenAccumulator.push(sim.peek('accumulator'));
      sim.step();
    }
    expect(seenAccumulator).toEqual([0n, 0n, 12n, 42n, 42n, 42n + 0xffffn * 0xffffn]);
  });
});
