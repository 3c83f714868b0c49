import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/**
 * Runs one of gpu/probes' Python scripts on bad input and checks that it answers as every command
 * of the project does: exit 1, nothing on stdout, one line on stderr that matches `message`.
 */
export function expectOneLineError(script: string, args: readonly string[], message: RegExp): void {
  const run = spawnSync('python3', [script, ...args], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr.trim()).toMatch(message);
}
