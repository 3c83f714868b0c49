/**
 * The README's quick start, run as written: every command of its "Then:" block, from the
 * repository root, in order (later lines use what earlier ones wrote), must exit 0.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { execa } from 'execa';

const repository = new URL('../..', import.meta.url).pathname;

/** The commands of the first sh block after "Then" in the Quick start section, comments removed. */
export function quickStartCommands(readme: string): string[] {
  const section = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)?.[1];
  if (section === undefined) throw new Error('README has no Quick start section');
  const block = /^Then[^\n]*[\s\S]*?```sh\n([\s\S]*?)```/m.exec(section)?.[1];
  if (block === undefined) throw new Error('Quick start has no command block after "Then"');
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const commands = quickStartCommands(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));

describe('README quick start', () => {
  it('has commands, each a gen command', () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
    for (const command of commands) expect(command).toMatch(/^npx gen /);
  });

  it.each(commands)(
    '%s',
    async (command) => {
      const run = await execa('sh', ['-c', command], { cwd: repository, reject: false, env: { CI: '1' } });
      expect(run.exitCode, `${command}\n${run.stderr}`).toBe(0);
    },
    300_000,
  );
});
