import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

/*
 * `gen sim --vcd` onto a full disk on the external engines: exit non-zero with one line naming the
 * simulator, no file under the final name, no temporary left, no hang. Two disks: a 16 KiB tmpfs
 * (full within the header) and a 2 MiB one (full in the middle of a 10^5-cycle run). Before,
 * Icarus exited 0 and left a cut-off VCD under the final name; Verilator hung in its trace flush
 * until the run timeout, on the 2 MiB disk because Verilator's own trace file reports a failed
 * write through VL_FATAL_MT, whose flush callbacks wait for the trace's lock it already holds.
 * Needs root (to mount the tmpfs); skipped otherwise.
 */

const ROOT = new URL('../..', import.meta.url).pathname;
const GEN = join(ROOT, 'bin/gen.js');
const scratch = mkdtempSync(join(tmpdir(), 'full-disk-'));
/** The disks, by size, and the cycles of a counter whose VCD is several times what each holds. */
const DISKS = [
  { size: '16k', cycles: 3_000 },
  { size: '2m', cycles: 100_000 },
] as const;
const diskOf = (size: string): string => join(scratch, `disk-${size}`);

function mountTmpfs(size: string): boolean {
  mkdirSync(diskOf(size), { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', diskOf(size)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const mounted = process.getuid?.() === 0 && DISKS.every(({ size }) => mountTmpfs(size));

beforeAll(() => {
  for (const { cycles } of DISKS) {
    const lines = [
      '{"in": {"reset": "1", "enable": 1}}',
      '{"in": {"reset": "0"}}',
      ...Array(cycles).fill('{"in": {}}'),
    ];
    writeFileSync(join(scratch, `long-${cycles}.jsonl`), `${lines.join('\n')}\n`);
  }
});
afterAll(() => {
  if (mounted) for (const { size } of DISKS) execFileSync('umount', [diskOf(size)]);
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(!mounted)('gen sim --vcd onto a full disk', () => {
  it.each(DISKS.flatMap((disk) => (['icarus', 'verilator'] as const).map((engine) => ({ engine, ...disk }))))(
    '$engine, $size disk: exits non-zero with one line, leaves no file, does not hang',
    async ({ engine, size, cycles }) => {
      const disk = diskOf(size);
      // The outputs go to a disk with room: the trace is what fills this one.
      const sim = (vcd: string, timeout: number) =>
        execa(
          process.execPath,
          [
            GEN,
            'sim',
            '--top',
            'Counter',
            '--vectors',
            join(scratch, `long-${cycles}.jsonl`),
            '--engine',
            engine,
            '--out',
            join(scratch, `${engine}.jsonl`),
            '--vcd',
            vcd,
          ],
          { reject: false, cwd: ROOT, env: { CI: '1' }, timeout, killSignal: 'SIGKILL' },
        );
      // The traced build first, onto a disk with room: the bound below is the run's, not the compiler's.
      expect((await sim(join(scratch, `${engine}-warm.vcd`), 280_000)).exitCode).toBe(0);
      const started = performance.now();
      const run = await sim(join(disk, `${engine}.vcd`), 60_000);
      expect(run.timedOut, 'the run hung').toBe(false);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^gen: ${engine}: .*(the disk is full|was the disk full|cannot write the trace: No space left on device)`,
        ),
      );
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(readdirSync(disk)).toEqual([]);
      expect(performance.now() - started).toBeLessThan(60_000);
    },
    400_000,
  );
});
