import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageName } from '../../gen/init/scaffold.ts';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'gen-init-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function gen(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(root, 'bin', 'gen.js'), ...args], { cwd: work, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const framework = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
};

describe('gen init', () => {
  it('scaffolds a project depending on the running version, with its dev tools pinned as the framework pins them', () => {
    const result = gen('init', 'My Chip');
    expect(result.status, result.stderr).toBe(0);
    const project = join(work, 'My Chip');
    expect(readdirSync(project).sort()).toEqual(
      [
        '.gitignore',
        'README.md',
        'gen.config.ts',
        'package.json',
        'src',
        'tests',
        'tsconfig.json',
        'vectors.jsonl',
        'vitest.config.ts',
      ].sort(),
    );
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(manifest.name).toBe('my-chip');
    expect(manifest.dependencies).toEqual({ 'coruscant-hdl': framework.version });
    expect(manifest.devDependencies.vitest).toBe(framework.devDependencies.vitest);
    expect(manifest.devDependencies.typescript).toBe(framework.devDependencies.typescript);
    expect(manifest.scripts.test).toBe('vitest run');
    const readme = readFileSync(join(project, 'README.md'), 'utf8');
    expect(readme).toMatch(/^# my-chip\n/);
    expect(readme).toContain('npm install\nnpm test\n');
    expect(readFileSync(join(project, 'gen.config.ts'), 'utf8')).toContain("designs: ['src/accumulator.ts']");
  });

  it('depends on what --framework names (a tarball for tests)', () => {
    const result = gen('init', 'packed', '--framework', 'file:../coruscant-hdl-0.1.0.tgz');
    expect(result.status, result.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(work, 'packed', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies['coruscant-hdl']).toBe('file:../coruscant-hdl-0.1.0.tgz');
  });

  it('writes into an empty folder and refuses one that is not empty, with one line and no file written', () => {
    mkdirSync(join(work, 'empty'));
    expect(gen('init', 'empty').status).toBe(0);
    mkdirSync(join(work, 'busy'));
    writeFileSync(join(work, 'busy', 'notes.txt'), 'mine\n');
    const refused = gen('init', 'busy');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe('gen: busy is not empty; gen init writes only into a new or empty folder\n');
    expect(readdirSync(join(work, 'busy'))).toEqual(['notes.txt']);
  });

  it('names the package after the folder, as npm accepts names', () => {
    expect(packageName('/x/My Chip')).toBe('my-chip');
    expect(packageName('/x/.hidden_Thing')).toBe('hidden_thing');
    expect(packageName('/x/…')).toBe('hardware-project');
  });
});
