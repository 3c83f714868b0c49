import { describe, expect, it } from 'vitest';
import { defineModule, input, output } from '../../../hw/core/index.ts';
import { CheckFailedError } from '../../../hw/contract/checks.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { StreamFifo } from '../../../hw/lib/stream/index.ts';
import { Testbench } from '../../../verif/testbench.ts';
import { Scoreboard, validReadyDriver, validReadyMonitor } from '../../../verif/agents/validReady.ts';
import {
  ProcessDeadlockError,
  ProcessFailedError,
  ProcessTimeoutError,
} from '../../../verif/processes/processErrors.ts';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';

/*
 * The process scheduler's rules on the in-process engine (the three-engine event logs are in
 * tests/verif/testbenchProcesses.test.ts): failures name the process, the cycle and the values
 * and end everything; deadlocks and waits outside a turn are refused; with several clocks a
 * process wakes only at its clock's edges; port names are checked by the types.
 */

const fifo = elaborate(StreamFifo, { width: 8, depth: 2 });
const IN = { valid: 'in_valid', ready: 'in_ready', data: 'in_data' } as const;
const OUT = { valid: 'out_valid', ready: 'out_ready', data: 'out_data' } as const;

/** A counter per clock domain: `fast` counts the edges of clk_fast, `slow` those of clk_slow. */
const TwoCounters = defineModule({
  name: 'TwoCounters',
  description: 'One counter in each of two clock domains',
  defaults: {},
  ports: () => ({ fast: output(8), slow: output(8) }),
  build(m, io) {
    for (const [name, port] of [
      ['fast', io.fast],
      ['slow', io.slow],
    ] as const)
      m.withDomain(m.domain(name, { reset: 'sync' }), () => {
        const count = m.reg(`${name}_count`, 8, { reset: 0 });
        count.set(count.add(1));
        port.set(count);
      });
  },
});

/** Refuses the word 0xff with an assertion. */
const Refuser = defineModule({
  name: 'Refuser',
  description: 'Asserts that its input is never 0xff',
  defaults: {},
  ports: () => ({ word: input(8), seen: output(8) }),
  build(m, io) {
    const seen = m.reg('last', 8, { reset: 0 });
    seen.set(io.word);
    io.seen.set(seen);
    m.assert(io.word.ne(0xff), 'never 0xff');
  },
});

describe('the process scheduler', () => {
  it('a failing design assertion in a step rejects main with the CheckFailedError and cancels the processes', async () => {
    const tb = await Testbench.open(elaborate(Refuser), new TsEngine());
    await tb.reset();
    const watcher = tb.fork(async () => {
      for (;;) await tb.rising();
    });
    tb.poke('word', 0xff);
    const failure = await tb.cycles(3).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CheckFailedError);
    expect((failure as Error).message).toMatch(/scheduler\.test\.ts:\d+: assertion failed at cycle 1/);
    expect(watcher.state).toBe('cancelled');
    await expect(tb.close()).resolves.toBeTypeOf('object');
  });

  it('an exception in a monitor fails the testbench naming it, the cycle and the values it read, and ends every process', async () => {
    const tb = await Testbench.open(fifo, new TsEngine());
    await tb.reset();
    // A wrong golden model: the first word out is the mismatch.
    const board = new Scoreboard((word) => word + 1n);
    const driver = validReadyDriver(tb, IN, [5, 6, 7], { onTransaction: (t) => board.input(t) });
    const monitor = validReadyMonitor(tb, OUT, { onTransaction: (t) => board.output(t) });
    const failure = await tb.joinAll([driver, monitor]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProcessFailedError);
    expect((failure as Error).message).toMatch(
      /^process 'monitor' \(forked at tests\/verif\/processes\/scheduler\.test\.ts:\d+\) failed at cycle 3: scoreboard: output 0 at cycle 2 was 0x5, the model expected 0x6 \(for the input accepted at cycle 1\) \(it read out_valid=0x1, out_ready=0x1, out_data=0x5\)$/,
    );
    expect([driver.state, monitor.state]).toEqual(['cancelled', 'failed']);
    expect(() => tb.poke('in_valid', 1)).toThrow(/closed/);
    await expect(tb.rising()).rejects.toBe(failure);
    await expect(tb.close()).resolves.toBeTypeOf('object');
  });

  it('refuses a deadlock at once, naming who joins whom', async () => {
    const tb = await Testbench.open(fifo, new TsEngine());
    const processes: ReturnType<typeof tb.fork>[] = [];
    processes.push(
      tb.fork(() => tb.join(processes[1]!), { name: 'a' }),
      tb.fork(() => tb.join(processes[0]!), { name: 'b' }),
    );
    const failure = await tb.join(processes[0]!).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProcessDeadlockError);
    expect((failure as Error).message).toMatch(
      /^process 'main' is deadlocked at cycle 0: 'main' joins 'a' \(forked at [^)]+\); 'a' \(forked at [^)]+\) joins 'b' \(forked at [^)]+\); 'b' \(forked at [^)]+\) joins 'a' \(forked at [^)]+\)$/,
    );
    await tb.close();
  });

  it('bounds until and join, and refuses a wait that was not awaited before the next', async () => {
    const tb = await Testbench.open(fifo, new TsEngine());
    await expect(tb.until(async () => (await tb.peek('out_valid')) === 1n, { timeout: 4 })).rejects.toThrow(
      new ProcessTimeoutError("'main'", 4, 'until(condition)', 4, ' (it read out_valid=0x0)'),
    );
    const forever = tb.fork(async () => {
      for (;;) await tb.rising();
    });
    await expect(tb.join(forever, { timeout: 3 })).rejects.toThrow(/^process 'main' timed out at cycle 7: join\(/);
    void tb.rising();
    await expect(tb.rising()).rejects.toThrow(/^process 'main' waited outside its turn/);
    await tb.close();
    expect(forever.state).toBe('cancelled');
  });

  it('with two clocks, a process wakes only at the edges of the clock it waits for', async () => {
    const design = elaborate(TwoCounters);
    // clk_fast rises at 5, 15, 25, …; clk_slow at 10, 30, 50, …: steps 1-9 are entered by f s f f s f f s f.
    const tb = await Testbench.open(design, new TsEngine(), { clocks: { clk_slow: { period: 20 } } });
    const woken: Record<string, number[]> = { fast: [], slow: [] };
    const counted: bigint[] = [];
    for (const name of ['fast', 'slow'] as const)
      tb.fork(async () => {
        for (;;) {
          const sample = await tb.rising(`clk_${name}`);
          woken[name]!.push(tb.cycle);
          if (name === 'slow') counted.push(sample.slow);
        }
      });
    await tb.cycles(9);
    expect(woken).toEqual({ fast: [1, 3, 4, 6, 7], slow: [2, 5, 8] });
    // The sample is taken before the edge: the slow counter had counted 0, 1, 2 edges.
    expect(counted).toEqual([0n, 1n, 2n]);
    await expect(tb.rising()).rejects.toThrow(/several clocks \(clk_fast, clk_slow\): name the one/);
    await expect(tb.rising('clk')).rejects.toThrow(/no clock 'clk' \(its clocks: clk_fast, clk_slow\)/);
    await tb.close();
  });

  it('accepts only the design\u2019s port names, in the right direction', async () => {
    const tb = await Testbench.open(fifo, new TsEngine());
    // @ts-expect-error: not a port of the FIFO
    expect(() => tb.poke('in_vald', 1)).toThrow(/in_vald/);
    // @ts-expect-error: an output cannot be driven
    expect(() => validReadyDriver(tb, { valid: 'out_valid', ready: 'in_ready', data: 'in_data' }, [])).toBeDefined();
    const sample = await tb.rising();
    // @ts-expect-error: the sample has the design's ports only
    expect(sample.in_vald).toBeUndefined();
    expect(sample.count).toBe(0n);
    await tb.close();
  });
});
