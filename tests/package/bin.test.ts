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

/** What `node ROOT/bin/gen.js` prints, with `$GEN_COMPILED_CHECKOUT` as given (unset by default). */
function gen(root: string, compiledCheckout?: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, GEN_COMPILED_CHECKOUT: compiledCheckout };
  if (compiledCheckout === undefined) delete env['GEN_COMPILED_CHECKOUT'];
  return spawnSync(process.execPath, [join(root, 'bin', 'gen.js')], { encoding: 'utf8', env }).stdout.trim();
}

describe('bin/gen.js', () => {
  it('runs the TypeScript sources through tsx where they exist (a checkout), even beside a dist/ left over', () => {
    expect(gen(layout('checkout', true))).toBe('sources');
  });

  it('runs the compiled dist/ in an installed package, which ships no sources', () => {
    expect(gen(layout('installed', false))).toBe('compiled');
  });

  it('runs the compiled copy $GEN_COMPILED_CHECKOUT names instead of a checkout, telling it the sources', () => {
    const copy = join(work, 'copy');
    mkdirSync(join(copy, 'dist', 'gen', 'cli'), { recursive: true });
    writeFileSync(
      join(copy, 'dist', 'gen', 'cli', 'main.js'),
      "console.log('copy of ' + process.env.GEN_FRAMEWORK_SOURCES);\n",
    );
    const checkout = layout('compiledCheckout', true);
    expect(gen(checkout, copy)).toBe(`copy of ${checkout}/`);
    // An installed package has no sources to stand in for: it runs its own dist/.
    expect(gen(layout('installedBeside', false), copy)).toBe('compiled');
  });
});
