import { describe, expect, it } from 'vitest';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { StreamFifo } from '../../hw/lib/stream/index.ts';
import { Testbench, type ReactiveTestbench } from '../../verif/testbench.ts';
import { Scoreboard, validReadyDriver, validReadyMonitor } from '../../verif/agents/validReady.ts';
import { ProcessCancelledError, ProcessTimeoutError } from '../../verif/processes/processErrors.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { Engine } from '../../hw/contract/engine.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';

/*
 * Concurrent testbench processes on all three engines (issue 34): a driver and a monitor racing
 * through a FIFO, a timeout that names its process and cycle, and the fork / join / cancel order,
 * each as an event log that must be the same on ts, Verilator and Icarus. The engines are built
 * once (the Verilator and Icarus builds are cached by design); each test opens its own session.
 */

const design = elaborate(StreamFifo, { width: 8, depth: 4 });
type FifoPorts = typeof design extends IrDesign<infer P> ? P : never;
const IN = { valid: 'in_valid', ready: 'in_ready', data: 'in_data' } as const;
const OUT = { valid: 'out_valid', ready: 'out_ready', data: 'out_data' } as const;

const engines: readonly (readonly [string, () => Engine])[] = [
  ['ts', () => new TsEngine()],
  ['verilator', () => new VerilatorEngine()],
  ['icarus', () => new IcarusEngine()],
];

/** Runs `body` on a fresh testbench of each engine and returns what each gave, by engine. */
async function onEveryEngine<T>(body: (tb: ReactiveTestbench<FifoPorts>) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (const [, create] of engines) {
    const tb = await Testbench.open(design, create());
    try {
      results.push(await body(tb));
    } finally {
      await tb.close();
    }
  }
  return results;
}

const WORDS = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc];
const SEED = 20_261_202;

describe('concurrent testbench processes', () => {
  it('a driver and a monitor race through a FIFO with random stalls: the same event log on every engine', async () => {
    console.log(`stall seed ${SEED}`);
    const logs = await onEveryEngine(async (tb) => {
      const log: string[] = [];
      const board = new Scoreboard((word) => word);
      await tb.reset();
      const driver = validReadyDriver(tb, IN, WORDS, {
        stall: 0.3,
        seed: SEED,
        onTransaction: (t) => (board.input(t), log.push(`${t.cycle} in ${t.data}`)),
      });
      const monitor = validReadyMonitor(tb, OUT, {
        stall: 0.5,
        seed: SEED + 1,
        count: WORDS.length,
        onTransaction: (t) => (board.output(t), log.push(`${t.cycle} out ${t.data}`)),
      });
      const [sent, received] = await tb.joinAll([driver, monitor]);
      board.finish();
      expect(received.map((t) => t.data)).toEqual(sent.map((t) => t.data));
      // A word leaves at the earliest one edge after it came in (the queue is registered).
      received.forEach((t, index) => expect(t.cycle).toBeGreaterThan(sent[index]!.cycle));
      log.push(`end ${tb.cycle}, ${board.matched} matched`);
      return log;
    });
    expect(logs[0]).toHaveLength(2 * WORDS.length + 1);
    expect(logs[0]!.at(-1)).toMatch(/, 12 matched$/);
    expect(logs[1]).toEqual(logs[0]);
    expect(logs[2]).toEqual(logs[0]);
  }, 60_000);

  it('a driver the FIFO never drains times out naming itself, the cycle and what it read; the session ends', async () => {
    const outcomes = await onEveryEngine(async (tb) => {
      await tb.reset();
      const watcher = tb.fork(
        async () => {
          for (;;) await tb.rising();
        },
        { name: 'watcher' },
      );
      const driver = validReadyDriver(tb, IN, WORDS, { timeout: 10 });
      const failure = await tb.join(driver).catch((error: unknown) => error);
      return {
        failure: failure instanceof ProcessTimeoutError ? failure.message : failure,
        watcher: watcher.state,
        poke: (() => {
          try {
            tb.poke('out_ready', 1);
            return 'accepted';
          } catch (error) {
            return (error as Error).message.includes('closed') ? 'closed' : (error as Error).message;
          }
        })(),
      };
    });
    // Four words fill the queue (cycles 1-4); the fifth waits from cycle 5 for ten edges.
    expect(outcomes[0]).toEqual({
      failure: expect.stringMatching(
        /^process 'driver' \(forked at tests\/verif\/testbenchProcesses\.test\.ts:\d+\) timed out at cycle 15: untilEdge\(condition\) did not happen within 10 cycles \(it read in_ready=0x0\)$/,
      ),
      watcher: 'cancelled',
      poke: 'closed',
    });
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[2]).toEqual(outcomes[0]);
  }, 60_000);

  it('fork, falling, cycles, joinAny, cancel and joinAll resume in one documented order on every engine', async () => {
    const logs = await onEveryEngine(async (tb) => {
      const log: string[] = [];
      const at = (what: string): number => log.push(`${tb.cycle} ${what}`);
      await tb.reset();
      const ticker = tb.fork(
        async () => {
          try {
            for (;;) {
              await tb.rising();
              at('ticker edge');
            }
          } finally {
            at('ticker unwinds');
          }
        },
        { name: 'ticker' },
      );
      const worker = tb.fork(
        async () => {
          at('worker starts');
          await tb.cycles(2);
          at('worker done');
          return 7;
        },
        { name: 'worker' },
      );
      const late = tb.fork(
        async () => {
          await tb.falling();
          at('late falling');
          await tb.cycles(5);
          return 8;
        },
        { name: 'late' },
      );
      at('main forked');
      const first = await tb.joinAny([worker, late]);
      at(`main joinAny ${first.index}=${first.value}`);
      await ticker.cancel();
      at(`ticker ${ticker.state}`);
      await expect(tb.join(ticker)).rejects.toThrow(ProcessCancelledError);
      const [lateValue] = await tb.joinAll([late]);
      at(`main joinAll ${lateValue}`);
      return log;
    });
    expect(logs[0]).toEqual([
      '1 main forked',
      '1 worker starts',
      '1 late falling',
      '2 ticker edge',
      '3 ticker edge',
      '3 worker done',
      '3 main joinAny 0=7',
      '3 ticker unwinds',
      '3 ticker cancelled',
      '6 main joinAll 8',
    ]);
    expect(logs[1]).toEqual(logs[0]);
    expect(logs[2]).toEqual(logs[0]);
  }, 60_000);
});
