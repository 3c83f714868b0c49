/**
 * Verilator's batch runs through files go to a harness kept running between runs (`--serve files`):
 * one process for run after run on one build, a fresh one when it died while idle, the watchdog
 * during a run only, and nothing that keeps this process alive or outlives it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { VerilatorEngine } from '../../engines/verilator/verilatorEngine.ts';
import { WATCHDOG_ENV } from '../../engines/harness/runBounds.ts';
import { servedHarnessPids } from '../../engines/harness/harnessProcess.ts';
import { emptyInputFrames } from '../../engines/designFrames.ts';
import { hasTool } from '../../tools/toolchain.ts';
import { liveAfter, liveMembers } from '../support/processGroups.ts';

const design = elaborate(Counter);
const stream = (cycles: number) => {
  const frames = emptyInputFrames(design, cycles);
  frames.set(0, 'reset', 1);
  return frames;
};

afterEach(() => {
  delete process.env[WATCHDOG_ENV];
});

describe.runIf(hasTool('verilator'))('a served Verilator harness', () => {
  it('runs batch after batch on one process, and a fresh one after it died while idle', async () => {
    const engine = new VerilatorEngine();
    const [first] = await engine.runMany(design, [stream(5)]);
    const [pid] = servedHarnessPids();
    expect(pid).toBeDefined();
    const [second] = await engine.runMany(design, [stream(5), stream(7)]);
    expect(servedHarnessPids()).toEqual([pid]);
    expect([...second!.frames.words]).toEqual([...first!.frames.words]);
    process.kill(-pid!, 'SIGKILL');
    expect(await liveAfter(pid!)).toEqual([]);
    const [third] = await engine.runMany(design, [stream(5)]);
    expect([...third!.frames.words]).toEqual([...first!.frames.words]);
    expect(servedHarnessPids()).toHaveLength(1);
    expect(servedHarnessPids()[0]).not.toBe(pid);
  });

  it('is killed by the watchdog of a run that takes too long, and the next run has a new one', async () => {
    const engine = new VerilatorEngine();
    await engine.runMany(design, [stream(3)]);
    const [pid] = servedHarnessPids();
    expect(liveMembers(pid!).length).toBeGreaterThan(0);
    process.env[WATCHDOG_ENV] = '1';
    await expect(engine.runMany(design, [stream(3_000_000)])).rejects.toThrow(/^verilator: timed out after 1 ms$/);
    expect(await liveAfter(pid!)).toEqual([]);
    delete process.env[WATCHDOG_ENV];
    const [run] = await engine.runMany(design, [stream(4)]);
    expect(run!.frames.cycles).toBe(4);
  });

  it('does not keep a script alive, and goes with it', async () => {
    const script = `
      import { VerilatorEngine } from './engines/verilator/verilatorEngine.ts';
      import { servedHarnessPids } from './engines/harness/harnessProcess.ts';
      import { elaborate } from './hw/ir/elaborate.ts';
      import { Counter } from './hw/examples/counter.ts';
      await new VerilatorEngine().runMany(elaborate(Counter), [[{ reset: 1n }, {}]]);
      console.log(servedHarnessPids().join(' '));
    `;
    const started = performance.now();
    const run = await execa('npx', ['tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url).pathname,
    });
    expect(performance.now() - started).toBeLessThan(20_000);
    const pid = Number(run.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(await liveAfter(pid)).toEqual([]);
  });
});
