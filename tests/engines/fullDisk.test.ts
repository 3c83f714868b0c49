import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

/*
 * `gen sim --vcd` onto a full disk (a 16 KiB tmpfs) on the external engines: exit non-zero with
 * one line naming the simulator, no file under the final name, no hang. Before, Icarus exited 0
 * and left a cut-off VCD under the final name, and Verilator hung in its trace flush until the
 * 15-minute run timeout. Needs root (to mount the tmpfs); skipped otherwise.
 */

const ROOT = new URL('../..', import.meta.url).pathname;
const GEN = join(ROOT, 'bin/gen.js');
const scratch = mkdtempSync(join(tmpdir(), 'full-disk-'));
const disk = join(scratch, 'disk');

function mountTmpfs(): boolean {
  mkdirSync(disk, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', disk], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const mounted = process.getuid?.() === 0 && mountTmpfs();

beforeAll(() => {
  // 3000 cycles of a counter: a VCD of about 60 KiB, four times what the disk holds.
  const lines = ['{"in": {"reset": "1", "enable": 1}}', '{"in": {"reset": "0"}}', ...Array(3000).fill('{"in": {}}')];
  writeFileSync(join(scratch, 'long.jsonl'), `${lines.join('\n')}\n`);
});
afterAll(() => {
  if (mounted) execFileSync('umount', [disk]);
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(!mounted)('gen sim --vcd onto a full disk', () => {
  it.each(['icarus', 'verilator'])(
    '%s: exits non-zero with one line, leaves no file, does not hang',
    async (engine) => {
      const sim = (vcd: string) =>
        execa(
          process.execPath,
          [GEN, 'sim', '--top', 'Counter', '--vectors', join(scratch, 'long.jsonl'), '--engine', engine, '--vcd', vcd],
          { reject: false, cwd: ROOT, env: { CI: '1' } },
        );
      // The traced build first, onto a disk with room: the bound below is the run's, not the compiler's.
      expect((await sim(join(scratch, `${engine}-warm.vcd`))).exitCode).toBe(0);
      const started = performance.now();
      const run = await sim(join(disk, `${engine}.vcd`));
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^gen: ${engine}: .*(the disk is full|was the disk full)`));
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(readdirSync(disk)).toEqual([]);
      expect(performance.now() - started).toBeLessThan(120_000);
    },
    300_000,
  );
});
