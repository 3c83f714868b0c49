import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedBuild, intactEntry } from '../../tools/buildCache.ts';
import { runTool } from '../../tools/runTool.ts';
import { sweepWorkspaces } from '../../tools/runTool.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { Counter } from '../../hw/examples/counter.ts';
import { IcarusEngine } from '../../engines/icarus/icarusEngine.ts';
import type { PortValues } from '../../hw/contract/engine.ts';

/*
 * The build cache heals: an entry whose files changed since it was built (a truncated or deleted
 * binary) is built again once, with a message naming it; temporary folders of killed processes are
 * removed at the next start. Before, a truncated `simulate` was reused on every run ("was killed
 * by SIGSEGV") and `.tmp-*` and run folders of killed processes stayed forever.
 */

/** A process id that no process has now: one that has just exited. */
const deadPid = (): number => spawnSync('true').pid;

const messages: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  messages.length = 0;
});
const captureStderr = (): void => {
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
    messages.push(String(text));
    return true;
  });
};

describe('a damaged cache entry', () => {
  const build = (content: string) => async (dir: string) => writeFileSync(join(dir, 'simulate'), content);

  it('is built again once, with a message naming it, when a file was truncated', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-heal-'));
    const first = await cachedBuild(root, 'entry', build('a working binary'));
    truncateSync(join(first.dir, 'simulate'), 3);
    captureStderr();
    const second = await cachedBuild(root, 'entry', build('a working binary'));
    expect(second).toEqual({ dir: first.dir, built: true });
    expect(readFileSync(join(second.dir, 'simulate'), 'utf8')).toBe('a working binary');
    expect(messages.join('')).toBe(
      `gen: build cache entry ${first.dir} is damaged (simulate changed since it was built); building it again\n`,
    );
    // Healed: the next use takes it as it is, silently.
    messages.length = 0;
    expect(await cachedBuild(root, 'entry', build('never built'))).toEqual({ dir: first.dir, built: false });
    expect(messages).toEqual([]);
    expect(readdirSync(root)).toEqual(['entry']);
  });

  it('is built again when a file was deleted', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-heal-'));
    const { dir } = await cachedBuild(root, 'entry', build('binary'));
    rmSync(join(dir, 'simulate'));
    captureStderr();
    expect((await cachedBuild(root, 'entry', build('binary'))).built).toBe(true);
    expect(messages.join('')).toMatch(/\(simulate is missing\); building it again/);
    expect(readFileSync(join(dir, 'simulate'), 'utf8')).toBe('binary');
  });

  it('heals a truncated Icarus build: the engine runs right instead of failing', async () => {
    const cacheRoot = mkdtempSync(join(tmpdir(), 'cache-heal-icarus-'));
    const design = elaborate(Counter);
    const inputs: PortValues[] = [{ reset: 1n, enable: 1n }, { reset: 0n }, {}, {}];
    const engine = new IcarusEngine({ cacheRoot });
    const expected = await engine.run(design, inputs);
    const [entry] = readdirSync(cacheRoot).filter((name) => !name.startsWith('.'));
    const program = join(cacheRoot, entry!, 'design.vvp');
    truncateSync(program, Math.floor(readFileSync(program).length / 2));
    captureStderr();
    expect(await engine.run(design, inputs)).toEqual(expected);
    expect(messages.join('')).toMatch(/design\.vvp changed since it was built/);
  }, 60_000);
});

describe('a completion record that cannot vouch for its entry', () => {
  const build = (content: string) => async (dir: string) => writeFileSync(join(dir, 'simulate'), content);
  const fresh = async (content = 'a working binary'): Promise<{ root: string; dir: string }> => {
    const root = mkdtempSync(join(tmpdir(), 'cache-record-'));
    return { root, dir: (await cachedBuild(root, 'entry', build(content))).dir };
  };

  it('missing (the stamp deleted): built again with one line, not a rename error on every run', async () => {
    const { root, dir } = await fresh();
    rmSync(join(dir, '.complete'));
    captureStderr();
    expect(await cachedBuild(root, 'entry', build('a working binary'))).toEqual({ dir, built: true });
    expect(messages).toEqual([
      `gen: build cache entry ${dir} is damaged (it has no completion record); building it again\n`,
    ]);
    expect(readdirSync(root)).toEqual(['entry']);
    messages.length = 0;
    expect(await cachedBuild(root, 'entry', build('never built'))).toEqual({ dir, built: false });
    expect(messages).toEqual([]);
  });

  it('missing on a cache read directly (Verilator runtime objects): the entry is refused and rebuilt', async () => {
    const { root, dir } = await fresh();
    rmSync(join(dir, '.complete'));
    captureStderr();
    expect(intactEntry(root, 'entry')).toBeUndefined();
    expect(messages.join('')).toMatch(/\(it has no completion record\); building it again/);
    expect((await cachedBuild(root, 'entry', build('objects'))).built).toBe(true);
  });

  it('empty beside a damaged binary: built again, the damage never trusted nor recorded', async () => {
    const { root, dir } = await fresh();
    writeFileSync(join(dir, '.complete'), '');
    truncateSync(join(dir, 'simulate'), 3);
    captureStderr();
    expect((await cachedBuild(root, 'entry', build('a working binary'))).built).toBe(true);
    expect(messages.join('')).toMatch(/is damaged \(its completion record is empty\); building it again/);
    expect(readFileSync(join(dir, 'simulate'), 'utf8')).toBe('a working binary');
  });

  it('empty beside a binary replaced by a shell script: the script is never run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-record-'));
    const real = async (dir: string) => {
      writeFileSync(join(dir, 'simulate'), '#!/bin/sh\necho built\n');
      chmodSync(join(dir, 'simulate'), 0o755);
    };
    const { dir } = await cachedBuild(root, 'entry', real);
    writeFileSync(join(dir, 'simulate'), '#!/bin/sh\necho replaced\n');
    writeFileSync(join(dir, '.complete'), '');
    captureStderr();
    await cachedBuild(root, 'entry', real);
    expect((await runTool(join(dir, 'simulate'), [])).stdout).toBe('built\n');
  });

  it("tampered (a hash edited to match a replaced file) or another entry's: built again", async () => {
    const { root, dir } = await fresh();
    const record = readFileSync(join(dir, '.complete'), 'utf8');
    const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
    writeFileSync(join(dir, 'simulate'), 'replaced');
    writeFileSync(join(dir, '.complete'), record.replace(sha('a working binary'), sha('replaced')));
    captureStderr();
    expect((await cachedBuild(root, 'entry', build('a working binary'))).built).toBe(true);
    expect(messages.join('')).toMatch(/its completion record is not this entry's or was altered/);
    // A whole entry copied under another key (another design's binary, record and all).
    cpSync(dir, join(root, 'other'), { recursive: true });
    messages.length = 0;
    expect((await cachedBuild(root, 'other', build('the other design'))).built).toBe(true);
    expect(readFileSync(join(root, 'other', 'simulate'), 'utf8')).toBe('the other design');
  });

  it('is checked again in the same process: a file rewritten with its size and time kept is caught', async () => {
    const { root, dir } = await fresh('binary A');
    const binary = join(dir, 'simulate');
    // A whole-second time, so that restoring it below is exact.
    utimesSync(binary, 1_700_000_000, 1_700_000_000);
    expect((await cachedBuild(root, 'entry', build('binary A'))).built).toBe(false);
    const inode = statSync(binary).ino;
    writeFileSync(binary, 'binary B');
    utimesSync(binary, 1_700_000_000, 1_700_000_000);
    expect(statSync(binary).ino).toBe(inode);
    captureStderr();
    expect((await cachedBuild(root, 'entry', build('binary A'))).built).toBe(true);
    expect(readFileSync(binary, 'utf8')).toBe('binary A');
  });
});

describe('leftovers of killed processes', () => {
  it('are removed from the cache root at the first build of a process; live ones are kept', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-sweep-'));
    const dead = `.tmp-0123456789ab-${deadPid()}-0badc0de`;
    const live = `.tmp-0123456789ab-${process.pid}-600dc0de`;
    for (const name of [dead, live]) mkdirSync(join(root, name, 'obj'), { recursive: true });
    await cachedBuild(root, 'key', async (dir) => writeFileSync(join(dir, 'out'), 'x'));
    expect(readdirSync(root).sort()).toEqual([live, 'key'].sort());
  });

  it('are removed from the system temp folder: run folders of dead processes go, live ones stay', () => {
    const dead = join(tmpdir(), `gen-verilator-run-${deadPid()}-AbCdEf`);
    const live = join(tmpdir(), `gen-verilator-run-${process.pid}-AbCdEf`);
    for (const dir of [dead, live]) mkdirSync(dir, { recursive: true });
    try {
      expect(sweepWorkspaces()).toContain(dead.split('/').pop());
      expect(readdirSync(tmpdir())).not.toContain(dead.split('/').pop());
      expect(readdirSync(tmpdir())).toContain(live.split('/').pop());
    } finally {
      rmSync(live, { recursive: true, force: true });
    }
  });
});
