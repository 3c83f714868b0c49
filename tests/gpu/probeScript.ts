import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

/**
 * Runs a script on bad input (one of gpu/probes' Python scripts, or a TypeScript one with
 * `runner` tsx) and checks that it answers as every command of the project does: exit 1, nothing
 * on stdout, one line on stderr that matches `message`.
 */
export function expectOneLineError(
  script: string,
  args: readonly string[],
  message: RegExp,
  runner: 'python3' | 'tsx' = 'python3',
): void {
  const command = runner === 'tsx' ? join(import.meta.dirname, '../../node_modules/.bin/tsx') : runner;
  const run = spawnSync(command, [script, ...args], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr.trim()).toMatch(message);
}
