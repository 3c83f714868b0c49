/**
 * Cover points count the same hits on every engine: the emitted Verilog prints a `GEN-COVER` line
 * in each cycle a cover holds (engines/harness/checkLog.ts counts them), so Verilator and Icarus report
 * what the ts engine counts — clocked covers skipped while reset is high, a combinational child's
 * cover under its instance path, every stream of a batch on its own, random streams included,
 * and a module in a second clock domain checked only in that clock's cycles.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import type { EngineName, PortValues } from '../../hw/contract/engine.ts';
import { createEngine } from '../../engines/index.ts';
import { hasTool } from '../../tools/toolchain.ts';

/** Combinational: odd parity of its input. */
const Parity = defineModule({
  name: 'CoverHitsParity',
  defaults: {},
  ports: () => ({ a: input(3), odd: output(1) }),
  build(m, io) {
    io.odd.set(io.a.bit(0).xor(io.a.bit(1)).xor(io.a.bit(2)));
    m.cover(io.odd, 'odd');
  },
});

/** Clocked: a 3-bit counter, a cover at 3, and the parity child on the count. */
const Counted = defineModule({
  name: 'CoverHitsCounter',
  defaults: {},
  ports: () => ({ enable: input(1), count: output(3), odd: output(1) }),
  build(m, io) {
    const count = m.reg('value', 3, { reset: 0 });
    m.when(io.enable, () => count.set(count.add(1)));
    io.count.set(count);
    const parity = m.instance(Parity, {});
    parity.a.set(count);
    io.odd.set(parity.odd);
    m.cover(count.eq(3), 'three');
    m.cover(io.enable.and(count.eq(7)), 'wraps');
  },
});

const design = elaborate(Counted, {});

/** A counter with a cover at 2 and an assertion that fails at 5, instantiated in two clock domains. */
const DomainChild = defineModule({
  name: 'CoverHitsDomainChild',
  defaults: {},
  ports: () => ({ en: input(1), q: output(3) }),
  build(m, io) {
    const value = m.reg('value', 3, { reset: 0 });
    m.when(io.en, () => value.set(value.add(1)));
    io.q.set(value);
    m.cover(value.eq(2), 'two');
    m.assert(value.ne(5), 'never five');
  },
});
const TwoDomains = defineModule({
  name: 'CoverHitsTwoDomains',
  defaults: {},
  ports: () => ({ en: input(1), qa: output(3), qb: output(3) }),
  build(m, io) {
    const b = m.domain('b');
    const fast = m.instance(DomainChild, { name: 'fast' });
    fast.en.set(io.en);
    io.qa.set(fast.q);
    const slow = m.withDomain(b, () => m.instance(DomainChild, { name: 'slow' }));
    slow.en.set(io.en);
    io.qb.set(slow.q);
  },
});
const EXTERNAL: readonly EngineName[] = [
  ...(hasTool('verilator') ? (['verilator'] as const) : []),
  ...(hasTool('iverilog') ? (['icarus'] as const) : []),
];

async function coversOn(engine: EngineName, streams: readonly (readonly PortValues[])[]) {
  const runs = await (await createEngine(engine)).runMany(design, streams, { checks: 'count' });
  return runs.map((run) => run.checks?.covers);
}

/** Enable for 12 cycles with a reset at cycle 5, then idle: the count passes 3 twice, once under reset. */
const fixed: PortValues[] = Array.from({ length: 14 }, (_, cycle) => ({
  enable: cycle < 12 ? 1n : 0n,
  reset: cycle === 5 ? 1n : 0n,
}));

/** The cover names the ts engine reports (the child's under its instance path). */
const tsCovers = async (streams: readonly (readonly PortValues[])[]) => coversOn('ts', streams);

describe('cover hits on every engine', () => {
  it('ts counts the hits worked out by hand', async () => {
    const [covers] = await tsCovers([fixed]);
    const names = Object.keys(covers!).sort();
    expect(names).toHaveLength(3);
    // count before each edge: 0 1 2 3 4 | reset at 5 (count 5, cover skipped) | 0 1 2 3 4 5 6 6
    expect(covers!.three).toBe(2);
    expect(covers!.wraps).toBe(0);
    const odd = names.find((name) => name.endsWith('.odd'))!;
    expect(odd).not.toBe('odd');
    // odd parity among 0 1 2 3 4 5 0 1 2 3 4 5 6 6: the 1, 2 and 4 of each run
    expect(covers![odd]).toBe(6);
  });

  it.each(EXTERNAL)(
    '%s reports the same hits as ts, per stream of a batch',
    async (engine) => {
      const streams = [fixed, fixed.slice(0, 4), Array.from({ length: 20 }, () => ({ enable: 1n }))];
      expect(await coversOn(engine, streams)).toEqual(await tsCovers(streams));
    },
    600_000,
  );

  it.each(EXTERNAL)(
    "%s: a module in a second clock domain is checked in its own clock's cycles, as on ts",
    async (engine) => {
      const twoDomains = elaborate(TwoDomains, {});
      const clocks = { clk: { period: 2, phase: 0 }, clk_b: { period: 6, phase: 1 } };
      const stimulus = Array.from({ length: 30 }, (_, step) => ({
        en: 1n,
        reset: step === 0 ? 1n : 0n,
        rst_b: step === 0 ? 1n : 0n,
      }));
      const checksOn = async (name: EngineName) => {
        const run = await (await createEngine(name)).run(twoDomains, stimulus, { checks: 'count', clocks });
        return { covers: run.checks?.covers, failures: run.checks?.failures.map((f) => `${f.scope}@${f.cycle}`) };
      };
      const ts = await checksOn('ts');
      // 30 steps: the fast counter passes 2 three times, the slow one (a third of the edges) once.
      expect(ts.covers).toEqual({ 'fast.two': 3, 'slow.two': 1 });
      expect(await checksOn(engine)).toEqual(ts);
    },
    600_000,
  );

  it.each(EXTERNAL)(
    '%s counts them in a session too, closed after the stream',
    async (engine) => {
      const inSession = async (name: EngineName) => {
        const session = await (await createEngine(name)).open(design, { checks: 'count' });
        for (const cycle of fixed) {
          for (const [port, value] of Object.entries(cycle)) session.poke(port, value);
          await session.step();
        }
        return (await session.close()).checks?.covers;
      };
      expect(await inSession(engine)).toEqual(await inSession('ts'));
      expect((await inSession('ts'))!.three).toBe(2);
    },
    600_000,
  );

  it.each(EXTERNAL)(
    '%s equals ts on random enable/reset streams (fast-check)',
    async (engine) => {
      const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
      console.log(`cover hits on ${engine}: fast-check seed ${seed} (replay with FC_SEED=${seed})`);
      const cycle = fc.record({ enable: fc.constantFrom(0n, 1n), reset: fc.constantFrom(0n, 0n, 0n, 1n) });
      const streams = fc.array(fc.array(cycle, { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 6 });
      await fc.assert(
        fc.asyncProperty(streams, async (batch) => {
          expect(await coversOn(engine, batch)).toEqual(await tsCovers(batch));
        }),
        { seed, numRuns: 6 },
      );
    },
    600_000,
  );
});
