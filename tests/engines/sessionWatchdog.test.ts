import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import { runTimeout, WATCHDOG_ENV } from '../../engines/harness/runBounds.ts';
import type { Engine, EngineSession } from '../../hw/contract/engine.ts';
import { ToolError } from '../../common/errors.ts';
import { hasTool } from '../../tools/toolchain.ts';
import { liveAfter, liveMembers } from '../support/processGroups.ts';

/*
 * The watchdog of an external engine session (Engine.open on Verilator or Icarus): it is armed
 * around each wait for the harness (a peek's outputs, a step's acknowledgement) and nowhere else.
 * A step that runs past it, or a harness hung in one, is killed with its whole process group: the
 * step rejects with one line naming the timeout and the session's cycle, every later call fails
 * with that line, close settles, and a traced session leaves neither its temporaries nor a
 * half-written VCD. An idle session is not watched, even when its harness is hung: nothing is
 * asked of it. The ts engine runs in this process and has no watchdog. The bound is fixed short
 * here through GEN_WATCHDOG_MS (the derived one is at least 30 s).
 */

const WATCHDOG_MS = 1500;
const design = elaborate(Counter);

const ENGINES: readonly (readonly [string, () => Engine])[] = [
  ...(hasTool('verilator') ? [['verilator', () => new VerilatorEngine()] as const] : []),
  ...(hasTool('iverilog') ? [['icarus', () => new IcarusEngine()] as const] : []),
];

/** The process group of an external session's harness (the guard shell leads it). */
const groupOf = (session: EngineSession): number => (session as unknown as { pid: number }).pid;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Set for the whole file (not per test: the concurrent tests below would see it unset by another's end).
const saved = process.env[WATCHDOG_ENV];
beforeAll(() => {
  process.env[WATCHDOG_ENV] = String(WATCHDOG_MS);
});
afterAll(() => {
  if (saved === undefined) delete process.env[WATCHDOG_ENV];
  else process.env[WATCHDOG_ENV] = saved;
});

describe('the fixed watchdog bound', () => {
  it('replaces every derived bound, and refuses what is not a whole number of ms', () => {
    try {
      expect(runTimeout(10 ** 9, 10 ** 6, 50, true)).toBe(WATCHDOG_MS);
      delete process.env[WATCHDOG_ENV];
      expect(runTimeout(3, 5, 50, false)).toBe(30_004);
      process.env[WATCHDOG_ENV] = '';
      expect(runTimeout(3, 5, 50, false)).toBe(30_004);
      for (const bad of ['0', '-5', '1.5', '1e3', 'soon']) {
        process.env[WATCHDOG_ENV] = bad;
        expect(() => runTimeout(3, 5, 50, false), bad).toThrow(
          `${WATCHDOG_ENV} must be a whole number of milliseconds above 0, got '${bad}'`,
        );
      }
    } finally {
      process.env[WATCHDOG_ENV] = String(WATCHDOG_MS);
    }
  });
});

// Concurrent: each test waits on its own process group, so the file takes about one watchdog's time.
describe.skipIf(ENGINES.length === 0).concurrent('the watchdog of an external engine session', () => {
  it.each(ENGINES)(
    '%s: a step hung past its watchdog is killed: one line, the process group gone, later calls fail, no VCD left',
    async (_name, create) => {
      const dir = mkdtempSync(join(tmpdir(), 'session-watchdog-'));
      const vcd = join(dir, 'hung.vcd');
      const session = await create().open(design, { vcd });
      session.poke('enable', 1);
      await session.step(3);
      expect(await session.peek('count')).toBe(3n);
      const group = groupOf(session);
      // A simulator stuck in the middle of the next step (as on a write to a full disk).
      process.kill(-group, 'SIGSTOP');
      const started = performance.now();
      const failure = await session.step().catch((error: unknown) => error);
      const waited = performance.now() - started;
      expect(failure).toBeInstanceOf(ToolError);
      const message = (failure as Error).message;
      expect(message).toMatch(
        new RegExp(`^(verilator|vvp): timed out after ${WATCHDOG_MS} ms \\(session in cycle 3\\)$`),
      );
      expect(waited).toBeGreaterThanOrEqual(WATCHDOG_MS - 50);
      expect(waited).toBeLessThan(WATCHDOG_MS + 5000);
      expect(await liveAfter(group)).toEqual([]);
      // Every later call says the same line; the session stays in cycle 3.
      expect(() => session.poke('enable', 0)).toThrow(message);
      await expect(session.peek('count')).rejects.toThrow(message);
      await expect(session.peekAll()).rejects.toThrow(message);
      await expect(session.step(2)).rejects.toThrow(message);
      expect(session.cycle).toBe(3);
      await expect(session.close()).rejects.toThrow(message);
      await expect(session.close()).rejects.toThrow(message);
      // Neither the raw trace nor the rewritten temporary, and nothing under the VCD's name.
      expect(readdirSync(dir)).toEqual([]);
    },
    60_000,
  );

  it.each(ENGINES)(
    '%s: a step that runs past its watchdog is killed the same way',
    async (_name, create) => {
      const session = await create().open(design);
      session.poke('enable', 1);
      await session.step(2);
      const group = groupOf(session);
      // 2^32 - 1 cycles of a counter: minutes on Verilator, hours on Icarus.
      const failure = await session.step(0xffffffff).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ToolError);
      expect((failure as Error).message).toMatch(
        new RegExp(`^(verilator|vvp): timed out after ${WATCHDOG_MS} ms \\(session in cycle 2\\)$`),
      );
      expect(await liveAfter(group)).toEqual([]);
      await expect(session.close()).rejects.toThrow((failure as Error).message);
    },
    60_000,
  );

  it.each(ENGINES)(
    '%s: an idle session is not watched: a harness hung while idle lives on, and steps once it resumes',
    async (_name, create) => {
      const dir = mkdtempSync(join(tmpdir(), 'session-idle-'));
      const vcd = join(dir, 'idle.vcd');
      const session = await create().open(design, { vcd });
      session.poke('enable', 1);
      await session.step(2);
      const group = groupOf(session);
      process.kill(-group, 'SIGSTOP');
      await sleep(1.5 * WATCHDOG_MS);
      // The harness, its guard shell (and Icarus's input pipe) are all there, stopped.
      expect(liveMembers(group).length).toBeGreaterThanOrEqual(2);
      expect(liveMembers(group)).toContain(group);
      process.kill(-group, 'SIGCONT');
      await session.step(3);
      expect(await session.peek('count')).toBe(5n);
      expect(session.cycle).toBe(5);
      await expect(session.close()).resolves.toEqual({});
      expect(await liveAfter(group)).toEqual([]);
      expect(readdirSync(dir)).toEqual(['idle.vcd']);
    },
    60_000,
  );

  it.each(ENGINES)(
    '%s: a peek on a hung harness is killed the same way',
    async (_name, create) => {
      const session = await create().open(design);
      session.poke('enable', 1);
      await session.step(4);
      const group = groupOf(session);
      process.kill(-group, 'SIGSTOP');
      // A poke changes what the next peek sees, so the peek has to ask the harness.
      session.poke('enable', 0);
      const failure = await session.peek('count').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ToolError);
      expect((failure as Error).message).toMatch(
        new RegExp(`^(verilator|vvp): timed out after ${WATCHDOG_MS} ms \\(session in cycle 4\\)$`),
      );
      expect(await liveAfter(group)).toEqual([]);
      await expect(session.step()).rejects.toThrow((failure as Error).message);
      await expect(session.close()).rejects.toThrow((failure as Error).message);
    },
    60_000,
  );

  it.each(ENGINES)(
    '%s: close on a hung harness settles within the watchdog, and no VCD is left',
    async (_name, create) => {
      const dir = mkdtempSync(join(tmpdir(), 'session-close-'));
      const session = await create().open(design, { vcd: join(dir, 'close.vcd') });
      session.poke('enable', 1);
      await session.step(2);
      const group = groupOf(session);
      process.kill(-group, 'SIGSTOP');
      const started = performance.now();
      await expect(session.close()).rejects.toThrow(
        new RegExp(`^(verilator|vvp): timed out after ${WATCHDOG_MS} ms \\(session in cycle 2\\)$`),
      );
      expect(performance.now() - started).toBeLessThan(WATCHDOG_MS + 5000);
      expect(await liveAfter(group)).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);
    },
    60_000,
  );
});
