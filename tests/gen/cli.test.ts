import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../gen/cli/commands/index.ts';
import { runGen, expectCleanFailure } from '../support/cli.ts';

describe('gen', () => {
  it('lists every command in --help and exits 0', async () => {
    const run = await runGen(['--help']);
    expect(run.exitCode).toBe(0);
    for (const entry of COMMANDS) expect(run.stdout).toContain(`gen ${entry.name}`);
  });

  it('without a command, or with an unknown one, says so in one line and exits 1', async () => {
    expect(expectCleanFailure(await runGen([]))).toMatch(/name a command/);
    expect(expectCleanFailure(await runGen(['frobnicate']))).toMatch(/Unknown argument|Did you mean/);
  });

  it.each(COMMANDS.map((entry) => entry.name))('gen %s --help describes its options and exits 0', async (name) => {
    const run = await runGen([name, '--help']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain(`gen ${name}`);
    expect(run.stdout).toMatch(/--help/);
  });
});
