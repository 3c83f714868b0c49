/**
 * Random initial state (`init: { random: seed }`, `gen sim --init random:<seed>`): registers
 * without a reset value and memories without initial contents start at values drawn from the
 * seed, the same on every engine, so a register that misses its reset shows as a mismatch
 * against a golden model, where zero state hides it. Registers with a reset and initialized
 * memories are left alone; the waveform is the same file on every engine, from cycle 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { RANDOM_INIT_MAX_DEPTH, parseInitialState, withInitialState } from '../../hw/ir/randomInit.ts';
import type { Engine, EngineName, PortValues } from '../../hw/contract/engine.ts';
import { createEngine } from '../../engines/index.ts';
import { hasTool } from '../../tools/toolchain.ts';

/**
 * A running sum whose accumulator has no reset (the bug), a reset counter beside it, and a
 * scratch memory read before it is written.
 */
const Summer = defineModule({
  name: 'RandomInitSummer',
  defaults: {},
  ports: () => ({ a: input(8), addr: input(2), sum: output(8), wide: output(70), ticks: output(4), word: output(12) }),
  build(m, io) {
    const sum = m.reg('total', 8);
    sum.set(sum.add(io.a));
    io.sum.set(sum);
    const wide = m.reg('spare', 70);
    wide.set(wide);
    io.wide.set(wide);
    const ticks = m.reg('tick', 4, { reset: 0 });
    ticks.set(ticks.add(1));
    io.ticks.set(ticks);
    const scratch = m.memory('scratch', { width: 12, depth: 4 });
    scratch.write(io.addr, io.a.zext(12), io.a.eq(0xff));
    io.word.set(scratch.read(io.addr));
  },
});
const design = elaborate(Summer, {});

const STIMULUS: readonly PortValues[] = [
  { reset: 1n, a: 0n, addr: 0n },
  { reset: 0n, a: 3n },
  { a: 4n, addr: 1n },
  { a: 0n, addr: 2n },
];

/** The golden model of the sum: 0 plus the inputs so far (what the designer meant). */
const goldenSums = (rows: readonly PortValues[]): bigint[] => {
  let sum = 0n;
  let a = 0n;
  return rows.map((row) => {
    const before = sum;
    a = row.a ?? a;
    sum = (sum + a) & 0xffn;
    return before;
  });
};

const ENGINES: readonly EngineName[] = [
  'ts',
  ...(hasTool('verilator') ? (['verilator'] as const) : []),
  ...(hasTool('iverilog') ? (['icarus'] as const) : []),
];
const engines = new Map<EngineName, Engine>();
const scratch = mkdtempSync(join(tmpdir(), 'random-init-'));
beforeAll(async () => {
  for (const name of ENGINES) engines.set(name, await createEngine(name));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('random initial state', () => {
  it('a missing reset passes against the golden model from zero state and fails from random state', async () => {
    const ts = engines.get('ts')!;
    const zero = await ts.run(design, STIMULUS);
    expect(zero.outputs.map((row) => row.sum)).toEqual(goldenSums(STIMULUS));
    const random = await ts.run(design, STIMULUS, { init: { random: 1 } });
    expect(random.outputs.map((row) => row.sum)).not.toEqual(goldenSums(STIMULUS));
    // The reset counter does not care how it started.
    expect(random.outputs.map((row) => row.ticks)).toEqual(zero.outputs.map((row) => row.ticks));
  });

  it('the same seed gives the same start, another seed another; reset registers and ROMs stay as declared', () => {
    const start = (seed: number) => {
      const module = withInitialState(design, { random: seed }).modules.at(-1)!;
      return {
        registers: module.registers.map((register) => register.initial),
        memory: module.memories[0]!.init,
      };
    };
    expect(start(7)).toEqual(start(7));
    expect(withInitialState(design, { random: 7 })).toBe(withInitialState(design, { random: 7 }));
    expect(start(8).registers).not.toEqual(start(7).registers);
    expect(start(8).memory).not.toEqual(start(7).memory);
    const [sum, wide, ticks] = start(7).registers;
    expect(sum! >> 8n).toBe(0n);
    expect(wide! >> 70n).toBe(0n);
    expect(wide! >> 64n).not.toBe(0n);
    expect(ticks).toBeUndefined();
    expect(start(7).memory).toHaveLength(4);
    expect(withInitialState(design, 'zero')).toBe(design);
  });

  it('--init text: zero, random with a seed, random with a fresh seed; anything else refused', () => {
    expect(parseInitialState('zero', () => 1)).toBe('zero');
    expect(parseInitialState('random:42', () => 1)).toEqual({ random: 42 });
    expect(parseInitialState('random', () => 99)).toEqual({ random: 99 });
    expect(() => parseInitialState('random:-1', () => 1)).toThrow(/^init must be zero, random or random:<seed>/);
    expect(() => parseInitialState('ones', () => 1)).toThrow(/^init must be/);
  });

  it('a memory deeper than random initial state fills is refused by name', () => {
    const Deep = defineModule({
      name: 'RandomInitDeep',
      defaults: {},
      ports: () => ({ addr: input(17), q: output(8) }),
      build(m, io) {
        io.q.set(m.memory('big', { width: 8, depth: RANDOM_INIT_MAX_DEPTH * 2 }).read(io.addr));
      },
    });
    expect(() => withInitialState(elaborate(Deep, {}), { random: 1 })).toThrow(
      /memory 'big' of RandomInitDeep has 131072 words/,
    );
  });

  it.each(ENGINES.filter((name) => name !== 'ts'))(
    '%s starts where ts starts: the same outputs, the same mismatch, the same waveform',
    async (name) => {
      const vcd = (engine: string): string => join(scratch, `${engine}.vcd`);
      const expected = await engines.get('ts')!.run(design, STIMULUS, { init: { random: 1 }, vcd: vcd('ts') });
      const run = await engines.get(name)!.run(design, STIMULUS, { init: { random: 1 }, vcd: vcd(name) });
      expect(run.outputs).toEqual(expected.outputs);
      expect(readFileSync(vcd(name), 'utf8')).toBe(readFileSync(vcd('ts'), 'utf8'));
    },
  );

  // Icarus runs a batch's streams in one simulation, its testbench setting the state at each start;
  // ts runs them one by one instead of in lanes. (Verilator makes a fresh model per stream.)
  it.each(ENGINES.filter((name) => name !== 'verilator'))(
    'every stream of a %s batch starts from the same random state',
    async (name) => {
      const [one, two] = await engines.get(name)!.runMany(design, [STIMULUS, STIMULUS], { init: { random: 1 } });
      expect(two!.outputs).toEqual(one!.outputs);
      expect(one!.outputs).toEqual((await engines.get('ts')!.run(design, STIMULUS, { init: { random: 1 } })).outputs);
    },
  );
});
