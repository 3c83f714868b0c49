import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure, runGen } from '../support/cli.ts';

/*
 * Full and read-only disks: one line naming the path and the reason, a non-zero exit, nothing
 * under the final name (nor a temporary filling the disk), and outputs checked before a long run.
 * Needs root to mount small tmpfs file systems; skipped otherwise. The same for the Verilator and
 * Icarus engines belongs to the external-tool layer (docs/hardening.md, "pending").
 */

const isRoot = process.getuid?.() === 0;
const scratch = mkdtempSync(join(tmpdir(), 'hardening-full-disk-'));
const full = join(scratch, 'full');
const readOnly = join(scratch, 'read-only');
/** Big enough that a trace fills it in the middle of a run, after its first chunks reached the disk. */
const fullLater = join(scratch, 'full-2m');
const mount = (args: string[]): void => {
  const result = spawnSync('mount', args);
  if (result.status !== 0) throw new Error(`mount ${args.join(' ')}: ${result.stderr.toString()}`);
};

beforeAll(() => {
  if (!isRoot) return;
  mkdirSync(full);
  mkdirSync(readOnly);
  mkdirSync(fullLater);
  mount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full]);
  mount(['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', fullLater]);
  mount(['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', readOnly]);
});
afterAll(() => {
  if (isRoot) for (const folder of [full, readOnly, fullLater]) spawnSync('umount', [folder]);
  rmSync(scratch, { recursive: true, force: true });
});

/** Counter vectors: enough cycles that the trace is far larger than 64 KiB. */
function vectors(cycles: number): string {
  const path = join(scratch, `counter-${cycles}.jsonl`);
  const lines = ['{"in": {"reset": "1", "enable": 1}}', '{"in": {"reset": "0"}}'];
  writeFileSync(path, `${[...lines, ...Array.from({ length: cycles }, () => '{"in": {}}')].join('\n')}\n`);
  return path;
}

describe.skipIf(!isRoot)('full and read-only disks (64 KiB and 2 MiB tmpfs mounted by the test)', () => {
  it('ts engine, sim --vcd --out onto a full disk: one line naming the output it filled, exit 1, the disk left empty', async () => {
    const run = await runGen([
      'sim',
      '--top',
      'Counter',
      '--vectors',
      vectors(20_000),
      '--vcd',
      join(full, 'run.vcd'),
      '--out',
      join(full, 'run.jsonl'),
    ]);
    // Both outputs stream to the disk as the run goes: whichever fills it is named.
    expect(expectCleanFailure(run)).toMatch(
      /cannot write .*full\/run\.(vcd|jsonl): no space left on the device \(ENOSPC\)/,
    );
    expect(run.exitCode).toBe(1);
    // No file under either final name, and no temporary left filling the disk.
    expect(readdirSync(full)).toEqual([]);
  }, 60_000);

  it('ts engine, sim --vcd filling a 2 MiB disk mid-run: one line, exit 1, the disk left empty (was an uncaught ENOSPC)', async () => {
    const run = await runGen([
      'sim',
      '--top',
      'Counter',
      '--vectors',
      vectors(100_000),
      '--vcd',
      join(fullLater, 'run.vcd'),
      '--out',
      join(scratch, 'run-2m.jsonl'),
    ]);
    expect(expectCleanFailure(run)).toMatch(/cannot write .*full-2m\/run\.vcd: no space left on the device \(ENOSPC\)/);
    expect(run.exitCode).toBe(1);
    expect(readdirSync(fullLater)).toEqual([]);
  }, 60_000);

  it('a read-only folder is named as such (it was reported as ENOENT), for a file and for a folder to create', async () => {
    const [file, nested] = await Promise.all([
      runGen(['sim', '--top', 'Counter', '--vectors', vectors(10), '--out', join(readOnly, 'run.jsonl')]),
      runGen(['sim', '--top', 'Counter', '--vectors', vectors(10), '--out', join(readOnly, 'sub', 'run.jsonl')]),
    ]);
    expect(expectCleanFailure(file)).toMatch(/read-only\/run\.jsonl: read-only file system \(EROFS\)/);
    expect(expectCleanFailure(nested)).toMatch(/read-only\/sub.*: read-only file system \(EROFS\)/);
  }, 60_000);

  it('regress --junit into a read-only folder fails before the run (a 10^6-case run, refused within 30 s)', async () => {
    const started = Date.now();
    const run = await runGen([
      'regress',
      '--suite',
      'tensor',
      '--runs',
      '1000000',
      '--seed',
      '1',
      '--junit',
      join(readOnly, 'junit.xml'),
      '--out',
      join(scratch, 'regress'),
    ]);
    // Refused before the run starts (its first line would be the seed).
    expect(expectCleanFailure(run)).toMatch(/cannot write .*read-only\/junit\.xml: read-only file system \(EROFS\)/);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
