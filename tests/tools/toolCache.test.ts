import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { execa } from 'execa';
import { cachedBuild, contentHash } from '../../tools/buildCache.ts';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('cachedBuild', () => {
  it('builds once per key and reuses the finished entry', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-test-'));
    let builds = 0;
    const build = async (dir: string): Promise<void> => {
      builds++;
      await pause(50);
      writeFileSync(join(dir, 'out.txt'), 'artifact');
    };
    const [first, second] = await Promise.all([cachedBuild(root, 'k1', build), cachedBuild(root, 'k1', build)]);
    expect(builds).toBe(1);
    expect(first).toEqual(second);
    expect(readFileSync(join(first.dir, 'out.txt'), 'utf8')).toBe('artifact');
    expect(await cachedBuild(root, 'k1', build)).toEqual({ dir: first.dir, built: false });
    expect(builds).toBe(1);
    expect(readdirSync(root)).toEqual(['k1']);
  });

  it('leaves nothing behind when a build fails', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-test-'));
    await expect(cachedBuild(root, 'bad', async () => Promise.reject(new Error('compiler exploded')))).rejects.toThrow(
      'compiler exploded',
    );
    expect(readdirSync(root)).toEqual([]);
  });

  it('survives separate processes building the same key at once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cache-test-'));
    const script = `
      import { cachedBuild } from ${JSON.stringify(new URL('../../tools/buildCache.ts', import.meta.url).pathname)};
      import { writeFileSync } from 'node:fs';
      const result = await cachedBuild(process.argv[2], 'shared', async (dir) => {
        for (let i = 0; i < 20; i++) { writeFileSync(dir + '/part' + i, String(process.pid).repeat(1000)); await new Promise((r) => setTimeout(r, 5)); }
      });
      console.log(JSON.stringify(result));`;
    const scriptFile = join(root, '..', `${root.split('/').pop()}-writer.mts`);
    writeFileSync(scriptFile, script);
    const runs = await Promise.all([0, 1, 2].map(() => execa(process.execPath, ['--import', 'tsx', scriptFile, root])));
    const dirs = new Set(runs.map((run) => (JSON.parse(run.stdout) as { dir: string }).dir));
    expect(dirs.size).toBe(1);
    const [dir] = [...dirs];
    expect(readdirSync(root)).toEqual(['shared']);
    // Every part comes from one writer: no entry mixes two builds.
    const writers = new Set(
      readdirSync(dir!)
        .filter((name) => name.startsWith('part'))
        .map((name) => readFileSync(join(dir!, name), 'utf8')),
    );
    expect(writers.size).toBe(1);
  });
});

describe('contentHash', () => {
  it('depends on where parts split, not only their concatenation', () => {
    expect(contentHash(['ab', 'c'])).not.toBe(contentHash(['a', 'bc']));
    expect(contentHash(['ab', 'c'])).toBe(contentHash(['ab', 'c']));
  });
});
