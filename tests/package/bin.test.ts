import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'gen-bin-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A package folder with bin/gen.js, a compiled main and, optionally, the TypeScript one. */
function layout(name: string, withSources: boolean): string {
  const root = join(work, name);
  const write = (file: string, text: string): void => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  mkdirSync(join(root, 'bin'), { recursive: true });
  copyFileSync(join(repo, 'bin', 'gen.js'), join(root, 'bin', 'gen.js'));
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  write('package.json', '{ "type": "module" }\n');
  write('dist/gen/cli/main.js', "console.log('compiled');\n");
  // Type syntax, so it runs only through tsx.
  if (withSources) write('gen/cli/main.ts', "const from: string = 'sources';\nconsole.log(from);\n");
  return root;
}

const gen = (root: string): string =>
  spawnSync(process.execPath, [join(root, 'bin', 'gen.js')], { encoding: 'utf8' }).stdout.trim();

describe('bin/gen.js', () => {
  it('runs the TypeScript sources through tsx where they exist (a checkout), even beside a dist/ left over', () => {
    expect(gen(layout('checkout', true))).toBe('sources');
  });

  it('runs the compiled dist/ in an installed package, which ships no sources', () => {
    expect(gen(layout('installed', false))).toBe('compiled');
  });
});
