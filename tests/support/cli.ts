import { execa } from 'execa';

/** Runs `gen …` as a user would (a child process, CI mode: no progress bars), never throwing; `env` adds variables. */
export function runGen(
  args: readonly string[],
  options: { cwd?: string; env?: Readonly<Record<string, string>> } = {},
) {
  return execa('node', [new URL('../../bin/gen.js', import.meta.url).pathname, ...args], {
    reject: false,
    cwd: options.cwd,
    env: { CI: '1', ...options.env },
  });
}

/** A user mistake: non-zero exit, exactly one line on stderr, no stack trace. */
export function expectCleanFailure(run: { exitCode?: number; stderr: string }): string {
  if (run.exitCode === 0) throw new Error('expected a non-zero exit');
  const lines = run.stderr.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got:\n${run.stderr}`);
  if (/\n\s+at |\.ts:\d+:\d+\)/.test(run.stderr)) throw new Error(`stack trace on stderr:\n${run.stderr}`);
  return lines[0]!;
}
