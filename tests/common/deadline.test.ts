import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envMilliseconds, formatSeconds, withDeadline } from '../../common/deadline.ts';

const NAME = 'GEN_TEST_DEADLINE_MS';
afterEach(() => {
  delete process.env[NAME];
});

describe('deadlines', () => {
  it('reads a bound from the environment: unset or empty is none, anything but a whole number above 0 is refused', () => {
    expect(envMilliseconds(NAME)).toBeUndefined();
    process.env[NAME] = '';
    expect(envMilliseconds(NAME)).toBeUndefined();
    process.env[NAME] = '2500';
    expect(envMilliseconds(NAME)).toBe(2500);
    for (const bad of ['0', '-5', '1.5', 'soon', '9'.repeat(30)]) {
      process.env[NAME] = bad;
      expect(() => envMilliseconds(NAME)).toThrow(
        /GEN_TEST_DEADLINE_MS must be a whole number of milliseconds above 0/,
      );
    }
  });

  it('shows bounds in seconds', () => {
    expect([formatSeconds(3000), formatSeconds(1500), formatSeconds(120_000), formatSeconds(1)]).toEqual([
      '3 s',
      '1.5 s',
      '120 s',
      '0.001 s',
    ]);
  });

  it('hands back what the work returns or throws, and lets the process go on after it', async () => {
    await expect(withDeadline(60_000, 'never shown', () => 42)).resolves.toBe(42);
    await expect(
      withDeadline(60_000, 'never shown', async () => {
        throw new Error('its own failure');
      }),
    ).rejects.toThrow('its own failure');
  });

  it('keeps every bound of a process with one watchdog: bounds that settled do not fire, a spin is ended at its own', () => {
    const deadline = new URL('../../common/deadline.ts', import.meta.url).href;
    const script = [
      `const { withDeadline } = await import(${JSON.stringify(deadline)});`,
      "for (let bound = 0; bound < 3; bound++) await withDeadline(300, 'settled bound fired', () => bound);",
      'await new Promise((settle) => setTimeout(settle, 500));',
      "await withDeadline(400, 'spin ended at its bound', () => { for (;;); });",
    ].join('\n');
    // A script file, not `-e`: under `node -e` a watchdog thread is not started while the main thread spins.
    const folder = mkdtempSync(join(tmpdir(), 'gen-deadline-'));
    const file = join(folder, 'bounds.mjs');
    writeFileSync(file, script);
    const child = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 60_000 });
    rmSync(folder, { recursive: true, force: true });
    expect(child.stderr).toBe('gen: spin ended at its bound\n');
    expect(child.signal).toBe('SIGINT');
  });
});
