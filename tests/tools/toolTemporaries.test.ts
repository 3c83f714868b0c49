import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runTool } from '../../tools/runTool.ts';
import { sweepLeftovers } from '../../tools/buildCache.ts';

/*
 * A tool's temporaries (g++'s `.s` files, iverilog's `ivrlg*` files, Yosys's ABC folders) go where
 * the tool's TMPDIR says: a folder of the build's temporary cache entry, or a private folder of
 * the run, never loose in /tmp. Before, a SIGKILL during a Verilator build left g++'s `.s` file in
 * /tmp for good.
 */

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Every file under `dir`, relative. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));

afterAll(() => {
  // Whatever a failing run left behind, by id.
  try {
    for (const pid of execFileSync('pgrep', ['-x', '-f', 'sleep 283.5'], { encoding: 'utf8' }).split('\n'))
      if (pid) process.kill(Number(pid), 'SIGKILL');
  } catch {
    // None left.
  }
});

describe('tool temporaries', () => {
  it('of a tool run stay in a private folder that is gone when the run ends', async () => {
    const { stdout } = await runTool('sh', ['-c', 'mktemp; echo "$TMP $TEMP"']);
    const [made, others] = stdout.trim().split('\n');
    expect(made!.startsWith(join(tmpdir(), 'gen-tool-'))).toBe(true);
    expect(others).toBe(`${join(made!, '..')} ${join(made!, '..')}`);
    expect(existsSync(join(made!, '..'))).toBe(false);
  });

  it('of a tool run go to the folder the caller names', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tool-temporaries-'));
    const { stdout } = await runTool('sh', ['-c', 'mktemp'], { tmpdir: folder });
    expect(stdout.trim().startsWith(`${folder}/`)).toBe(true);
    rmSync(folder, { recursive: true });
  });

  it('of a Verilator build killed by SIGKILL stay inside the cache entry, swept at the next start', async () => {
    const work = mkdtempSync(join(tmpdir(), 'tool-temporaries-'));
    const systemTemp = join(work, 'tmp');
    const cacheRoot = join(work, 'cache');
    const marker = join(work, 'compiling');
    // Stand-ins: verilator (quick) and make, which behaves as g++ under it does: a temporary in
    // $TMPDIR, then a long compile.
    const tool = (name: string, body: string): string => {
      writeFileSync(join(work, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(work, name), 0o755);
      return join(work, name);
    };
    const verilator = tool('verilator', 'echo Verilator 0.0');
    const compiler = tool('g++', 'echo g++ 0.0');
    const make = tool('make', `mktemp > ${marker}.part && mv ${marker}.part ${marker}\nexec sleep 283.5`);
    const script = join(work, 'build.mts');
    writeFileSync(
      script,
      `import { buildVerilator } from ${JSON.stringify(new URL('../../tools/verilator.ts', import.meta.url).pathname)};
         await buildVerilator(new Map([['Top.v', 'module Top(input clk); endmodule\\n']]),
           { top: 'Top', source: 'int main() { return 0; }\\n' }, { cacheRoot: ${JSON.stringify(cacheRoot)} });`,
    );
    mkdirSync(systemTemp);
    const parent = execa(process.execPath, ['--import', 'tsx', script], {
      reject: false,
      env: { TMPDIR: systemTemp, GEN_MAKE: make, GEN_VERILATOR: verilator, CXX: compiler },
    });
    for (let attempt = 0; attempt < 300 && !existsSync(marker); attempt++) await pause(100);
    const temporary = readFileSync(marker, 'utf8').trim();
    parent.kill('SIGKILL');
    await parent;
    expect(temporary.startsWith(`${cacheRoot}/.tmp-`)).toBe(true);
    // tsx (which runs the script) keeps its compile cache there; nothing else may be.
    expect(filesUnder(systemTemp).filter((name) => !name.startsWith('tsx-'))).toEqual([]);
    // The next build's sweep removes the dead build's entry, temporaries and all.
    for (let attempt = 0; attempt < 50 && sweepLeftovers(cacheRoot).length === 0; attempt++) await pause(100);
    expect(filesUnder(cacheRoot)).toEqual([]);
    rmSync(work, { recursive: true, force: true });
  }, 60_000);
});
