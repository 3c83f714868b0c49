import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, UserError } from '../../common/errors.ts';
import { findTool, findYosys, hasTool, TOOLS } from '../../tools/toolchain.ts';
import { runTool, withWorkspace } from '../../tools/runTool.ts';

const saved = { ...process.env };
afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

/** An executable shell script in a fresh folder. */
function fakeProgram(name: string, body: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolchain-test-')), name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('the toolchain finder', () => {
  it('knows every external program the framework runs, each with its override and package', () => {
    expect(Object.keys(TOOLS).sort()).toEqual([
      'g++',
      'iverilog',
      'make',
      'sta',
      'verilator',
      'vvp',
      'yosys',
      'yosys-abc',
    ]);
    expect(TOOLS.sta).toEqual({ program: 'sta', env: 'GEN_STA', debianPackage: 'opensta' });
  });

  it('runs the program an environment variable names instead of the one on PATH', async () => {
    process.env['GEN_VERILATOR'] = fakeProgram('my-verilator', 'echo "Verilator from the override $1"');
    expect(findTool('verilator')).toBe(process.env['GEN_VERILATOR']);
    expect(hasTool('verilator')).toBe(true);
    const { stdout } = await runTool('verilator', ['--version']);
    expect(stdout).toBe('Verilator from the override --version\n');
  });

  it('names the tool, not the override path, when the override is missing', async () => {
    process.env['GEN_STA'] = '/nonexistent/sta';
    expect(hasTool('sta')).toBe(false);
    await expect(runTool('sta', ['-version'])).rejects.toThrow(
      new ToolError('sta', 'not installed (apt-get install opensta)'),
    );
  });

  it('chooses Yosys one way: an explicit choice is kept, else GEN_USE_YOSYS, else the fastest installed', () => {
    expect(findYosys('yowasp')).toBe('yowasp');
    expect(findYosys('system')).toBe('system');
    process.env['GEN_USE_YOSYS'] = 'yowasp';
    expect(findYosys()).toBe('yowasp');
    process.env['GEN_USE_YOSYS'] = 'nonsense';
    expect(() => findYosys()).toThrow(UserError);
    delete process.env['GEN_USE_YOSYS'];
    process.env['GEN_YOSYS'] = '/nonexistent/yosys';
    expect(findYosys()).toBe('yowasp');
    process.env['GEN_YOSYS'] = fakeProgram('yosys', 'exit 0');
    expect(findYosys()).toBe('system');
  });
});

describe('runTool for tools that answer through their output', () => {
  it('returns any exit code when asked, but still fails on a crash', async () => {
    await expect(runTool('sh', ['-c', 'echo log; exit 5'], { acceptExitCodes: 'any' })).resolves.toMatchObject({
      stdout: 'log\n',
      exitCode: 5,
    });
    await expect(runTool('sh', ['-c', 'kill -SEGV $$'], { acceptExitCodes: 'any' })).rejects.toThrow(
      /^sh: was killed by SIGSEGV/,
    );
  });

  it('gives a tool no stdin, so one that reads it cannot hang', async () => {
    await expect(runTool('cat', [], { timeout: 10_000 })).resolves.toMatchObject({ stdout: '', exitCode: 0 });
  });

  it('removes its workspace whether the run succeeds or fails', async () => {
    let seen = '';
    await expect(
      withWorkspace('toolchain-test', { 'in.txt': 'hello' }, async (dir) => {
        seen = dir;
        await runTool('sh', ['-c', 'cat in.txt; exit 2'], { cwd: dir });
      }),
    ).rejects.toThrow(/exited with code 2\nhello$/);
    expect(seen).not.toBe('');
    expect(existsSync(seen)).toBe(false);
  });
});
