import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { defineModule, flip, output } from '../../hw/core/index.ts';
import { Stream } from '../../hw/lib/stream/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Testbench, type ReactiveTestbench } from '../../verif/testbench.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { Engine, PortValues } from '../../hw/contract/engine.ts';
import { CheckFailedError } from '../../hw/contract/checks.ts';
import { isDeadProcess } from '../../tools/processes.ts';

/*
 * One reactive testbench on all three engines (issue 19): it waits for the sink to come up, then
 * drives a valid/ready handshake, holding each word until the sink is ready. The sink is busy for
 * (data & 3) cycles after each word, so the testbench cannot know the timing ahead: it has to
 * read `in_ready` every cycle. Batch and interactive runs of one stream must agree exactly.
 */

/** Comes up 7 cycles after reset, then takes words when ready and sums them. */
const HandshakeSink = defineModule({
  name: 'HandshakeSink',
  description: 'A stream sink that comes up late and stalls after each word',
  defaults: {},
  ports: () => ({ in: flip(Stream(8)), up: output(1), sum: output(16), count: output(8) }),
  build(m, io) {
    const warm = m.reg('warm', 3, { reset: 0 });
    const up = warm.eq(7);
    m.when(up.not(), () => warm.set(warm.add(1)));
    const wait = m.reg('wait', 2, { reset: 0 });
    const ready = up.and(wait.eq(0));
    const sum = m.reg('total', 16, { reset: 0 });
    const count = m.reg('taken', 8, { reset: 0 });
    m.when(wait.ne(0), () => wait.set(wait.sub(1)));
    m.when(ready.and(io.in.valid), () => {
      sum.set(sum.add(io.in.data.zext(16)));
      count.set(count.add(1));
      wait.set(io.in.data.bits(1, 0));
    });
    m.assert(io.in.valid.not().or(io.in.data.ne(0xff)), 'the sink refuses 0xff');
    io.in.ready.set(ready);
    io.up.set(up);
    io.sum.set(sum);
    io.count.set(count);
  },
});

const design = elaborate(HandshakeSink);
const WORDS = [5, 2, 7, 1, 3, 0, 6, 4, 9, 11];

const engines: readonly (readonly [string, () => Engine])[] = [
  ['ts', () => new TsEngine()],
  ['verilator', () => new VerilatorEngine()],
  ['icarus', () => new IcarusEngine()],
];

/** The reactive testbench: wait for `up`, then hand over every word, reacting to `in_ready`. */
async function driveWords(tb: ReactiveTestbench): Promise<{ upAfter: number; cycles: number }> {
  await tb.reset();
  const upAfter = await tb.waitFor(async () => (await tb.peek('up')) === 1n, { limit: 20 });
  for (const word of WORDS) {
    tb.poke('in_valid', 1).poke('in_data', word);
    await tb.waitFor(async () => (await tb.peek('in_ready')) === 1n, { limit: 5 });
    await tb.step();
    tb.poke('in_valid', 0);
  }
  await tb.expect('count', WORDS.length);
  await tb.expect(
    'sum',
    WORDS.reduce((total, word) => total + word, 0),
  );
  return { upAfter, cycles: tb.cycle };
}

/** A stream with stalls, pokes that change nothing and reset, for batch-versus-session runs. */
function handshakeStream(): PortValues[] {
  const stream: PortValues[] = [{ reset: 1n }, { reset: 0n }];
  for (let cycle = 0; cycle < 40; cycle++)
    stream.push(cycle % 3 === 0 ? { in_valid: 1n, in_data: BigInt((cycle * 37) & 0x7f) } : { in_valid: 0n });
  return stream;
}

describe('a reactive testbench', () => {
  // Before the untraced runs of this design below: they use the traced build this test makes
  // (GEN_VERILATOR_REUSE_TRACED, vitest.config.ts) instead of building it a second time.
  it.each(engines)(
    '%s: a batch run and a session of the same stream give the same outputs and the same VCD, byte for byte',
    async (_name, create) => {
      const dir = mkdtempSync(join(tmpdir(), 'session-vcd-'));
      const stream = handshakeStream();
      const engine = create();
      const batch = await engine.run(design, stream, { vcd: join(dir, 'batch.vcd') });
      const session = await engine.open(design, { vcd: join(dir, 'session.vcd') });
      const outputs: PortValues[] = [];
      let data = 0n;
      for (const [cycle, inputs] of stream.entries()) {
        // A poke and a peek before the cycle's own pokes: only the cycle's final inputs count.
        if (cycle % 4 === 1) {
          session.poke('in_data', 0x55);
          await session.peekAll();
          session.poke('in_data', data);
        }
        for (const [name, value] of Object.entries(inputs)) session.poke(name, value);
        data = inputs['in_data'] ?? data;
        outputs.push(await session.peekAll());
        await session.step();
      }
      await session.close();
      expect(outputs).toEqual(batch.outputs);
      expect(readFileSync(join(dir, 'session.vcd'), 'latin1')).toBe(readFileSync(join(dir, 'batch.vcd'), 'latin1'));
    },
    60_000,
  );

  it.each(engines)(
    '%s: waits for the sink to come up, then drives the handshake reacting to ready',
    async (_name, create) => {
      const tb = await Testbench.open(design, create());
      try {
        // 7 cycles of warm-up after the reset cycle; then every word's stall decided by its data.
        await expect(driveWords(tb)).resolves.toEqual({ upAfter: 7, cycles: 31 });
      } finally {
        await tb.close();
      }
    },
    60_000,
  );

  it.each(engines)(
    '%s: a failing assertion stops the session with the batch run\u2019s error: file:line and cycle',
    async (_name, create) => {
      const engine = create();
      const stream: PortValues[] = [{ reset: 1n }, { reset: 0n }, {}, { in_valid: 1n, in_data: 0xffn }, {}];
      const batch = await engine.run(design, stream).catch((error: unknown) => error);
      expect(batch).toBeInstanceOf(CheckFailedError);
      const session = await engine.open(design);
      const stepped = (async () => {
        for (const inputs of stream) {
          for (const [name, value] of Object.entries(inputs)) session.poke(name, value);
          await session.step();
        }
      })();
      const failure = await stepped.catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CheckFailedError);
      expect((failure as Error).message).toBe((batch as Error).message);
      expect((failure as Error).message).toMatch(/testbenchReactive\.test\.ts:\d+: assertion failed at cycle 3/);
      expect(() => session.poke('in_valid', 0)).toThrow(/closed/);
    },
    60_000,
  );

  it('records nothing in batch mode: the recording Testbench still runs on every engine', async () => {
    const bench = new Testbench(design);
    bench.reset().step(7).expect('up', 1).poke('in_valid', 1).poke('in_data', 3).expect('in_ready', 1).step();
    bench.poke('in_valid', 0).expect('count', 1).expect('in_ready', 0).step(3).expect('in_ready', 1);
    for (const [, create] of engines) await expect(bench.run(create())).resolves.toHaveLength(13);
  }, 60_000);

  it('gives up waiting after its limit, naming the cycle and the values the condition read', async () => {
    const tb = await Testbench.open(design, new TsEngine());
    await expect(tb.waitFor(async () => (await tb.peek('up')) === 1n, { limit: 3 })).rejects.toThrow(
      "process 'main' timed out at cycle 3: waitFor(condition) did not happen within 3 cycles (it read up=0x0)",
    );
    await tb.close();
  });
});

describe('an external engine session process', () => {
  it.each(engines.slice(1))(
    '%s: killed under the session, the next call fails with one line naming the engine',
    async (_name, create) => {
      const session = await create().open(design);
      session.poke('reset', 1);
      await session.step(2);
      process.kill(-(session as unknown as { pid: number }).pid, 'SIGKILL');
      const failure = await session.step().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      const message = (failure as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^(verilator|vvp): the simulation was killed by SIGKILL \(session in cycle 2\)$/);
      await expect(session.close()).rejects.toThrow(message);
    },
    60_000,
  );

  it('ends with the process that opened it, even one killed by SIGKILL', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'session-orphan-')), 'open.mts');
    const here = new URL('../..', import.meta.url).pathname;
    await import('node:fs').then(({ writeFileSync }) =>
      writeFileSync(
        script,
        [
          `import { elaborate } from '${here}hw/ir/elaborate.ts';`,
          `import { Counter } from '${here}hw/examples/counter.ts';`,
          `import { VerilatorEngine } from '${here}engines/verilator/verilatorEngine.ts';`,
          'const session = await new VerilatorEngine().open(elaborate(Counter));',
          'await session.step(3);',
          'console.log(String(session.pid));',
          'setInterval(() => {}, 1000);',
        ].join('\n'),
      ),
    );
    const child = execa(process.execPath, ['--import', 'tsx', script], { cwd: here, reject: false });
    const pid = await new Promise<number>((resolve) =>
      child.stdout!.on('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    expect(isDeadProcess(pid)).toBe(false);
    child.kill('SIGKILL');
    await child;
    const deadline = Date.now() + 10_000;
    while (!isDeadProcess(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isDeadProcess(pid)).toBe(true);
  }, 60_000);
});
