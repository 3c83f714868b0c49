import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGen } from '../support/cli.ts';
import { AtomicFileStream, writeFileAtomic } from '../../common/atomicWrite.ts';
import { describeKilledOutputs } from './killedOutputs.ts';

/*
 * Writes never touch what they should not: a FIFO or a device is written through, a symlink's
 * target is replaced (the link stays), and multi-file outputs switch from the old set to the new
 * one in one step, whatever signal ends the writer.
 */

const scratch = mkdtempSync(join(tmpdir(), 'hardening-outputs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;
const mkfifo = (path: string): void => void spawnSync('mkfifo', [path], { stdio: 'inherit' });

const COUNTER_VECTORS = '{"in": {"reset": "1", "enable": 1}}\n{"in": {"reset": "0"}}\n{"in": {}}\n{"in": {}}\n';

describe('special files and symlinks as outputs', () => {
  it('a symlink is followed: its target is replaced atomically and the link stays a link', async () => {
    const dir = join(scratch, 'symlink');
    mkdirSync(dir);
    writeFileSync(join(dir, 'real.jsonl'), 'old\n', { mode: 0o640 });
    symlinkSync('real.jsonl', join(dir, 'link.jsonl'));
    symlinkSync('missing.jsonl', join(dir, 'dangling.jsonl'));
    writeFileAtomic(join(dir, 'link.jsonl'), 'new\n');
    expect(lstatSync(join(dir, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.jsonl'))).toBe('real.jsonl');
    expect(readFileSync(join(dir, 'real.jsonl'), 'utf8')).toBe('new\n');
    expect(statSync(join(dir, 'real.jsonl')).mode & 0o777).toBe(0o640);
    writeFileAtomic(join(dir, 'dangling.jsonl'), 'made\n');
    expect(lstatSync(join(dir, 'dangling.jsonl')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'missing.jsonl'), 'utf8')).toBe('made\n');
    expect(readdirSync(dir).sort()).toEqual(['dangling.jsonl', 'link.jsonl', 'missing.jsonl', 'real.jsonl']);

    // The same through the CLI, as the issue ran it.
    writeFileSync(join(dir, 'v.jsonl'), COUNTER_VECTORS);
    const run = await runGen([
      'sim',
      '--top',
      'Counter',
      '--vectors',
      join(dir, 'v.jsonl'),
      '--out',
      join(dir, 'link.jsonl'),
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lstatSync(join(dir, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.jsonl'), 'utf8').trim().split('\n')).toHaveLength(4);
  }, 60_000);

  it('a FIFO is written through (a reader gets the data) and stays a FIFO', async () => {
    const dir = join(scratch, 'fifo');
    mkdirSync(dir);
    const fifo = join(dir, 'pipe');
    mkfifo(fifo);
    writeFileSync(join(dir, 'v.jsonl'), COUNTER_VECTORS);
    const reader = execa('cat', [fifo], { reject: false });
    const run = await runGen(['sim', '--top', 'Counter', '--vectors', join(dir, 'v.jsonl'), '--out', fifo]);
    const read = await reader;
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(read.stdout.trim().split('\n')).toHaveLength(4);
    expect(readdirSync(dir).sort()).toEqual(['pipe', 'v.jsonl']);

    // A streamed output (VCD) into a FIFO as well.
    const streamReader = execa('cat', [fifo], { reject: false });
    const stream = new AtomicFileStream(fifo);
    stream.write('$enddefinitions $end\n#0\n');
    await stream.commit();
    expect((await streamReader).stdout).toBe('$enddefinitions $end\n#0');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  }, 60_000);

  it.skipIf(!isRoot)(
    'a device node is written through, never replaced (a private null device made with mknod)',
    async () => {
      const dir = join(scratch, 'device');
      mkdirSync(dir);
      const device = join(dir, 'null');
      const made = spawnSync('mknod', [device, 'c', '1', '3']);
      expect(made.status, made.stderr.toString()).toBe(0);
      writeFileAtomic(device, 'discarded\n');
      const stream = new AtomicFileStream(device);
      stream.write('discarded too\n');
      await stream.commit();
      writeFileSync(join(dir, 'v.jsonl'), COUNTER_VECTORS);
      const run = await runGen([
        'sim',
        '--top',
        'Counter',
        '--vectors',
        join(dir, 'v.jsonl'),
        '--out',
        device,
        '--vcd',
        device,
      ]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(lstatSync(device).isCharacterDevice()).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(['null', 'v.jsonl']);
      // The system's own /dev/null is only ever written through too.
      writeFileAtomic('/dev/null', 'discarded\n');
      expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    },
    60_000,
  );

  it.skipIf(!isRoot || spawnSync('iverilog', ['-V']).status === null)(
    "the Icarus engine's --vcd follows the same rules: a device written through, a symlink's target replaced",
    async () => {
      const dir = join(scratch, 'icarus');
      mkdirSync(dir);
      expect(spawnSync('mknod', [join(dir, 'null'), 'c', '1', '3']).status).toBe(0);
      writeFileSync(join(dir, 'real.vcd'), 'old\n');
      symlinkSync('real.vcd', join(dir, 'link.vcd'));
      writeFileSync(join(dir, 'v.jsonl'), COUNTER_VECTORS);
      const sim = (vcd: string) =>
        runGen(['sim', '--engine', 'icarus', '--top', 'Counter', '--vectors', join(dir, 'v.jsonl'), '--vcd', vcd]);
      const [device, link] = [await sim(join(dir, 'null')), await sim(join(dir, 'link.vcd'))];
      expect(device.exitCode, device.stderr).toBe(0);
      expect(link.exitCode, link.stderr).toBe(0);
      expect(lstatSync(join(dir, 'null')).isCharacterDevice()).toBe(true);
      expect(lstatSync(join(dir, 'link.vcd')).isSymbolicLink()).toBe(true);
      expect(readFileSync(join(dir, 'real.vcd'), 'utf8')).toMatch(/\$enddefinitions/);
      expect(readdirSync(dir).sort()).toEqual(['link.vcd', 'null', 'real.vcd', 'v.jsonl']);
    },
    120_000,
  );

  it('a folder named as a file output is refused in one line, untouched', () => {
    const dir = join(scratch, 'folder-out');
    mkdirSync(join(dir, 'keep'), { recursive: true });
    expect(() => writeFileAtomic(join(dir, 'keep'), 'x')).toThrow(/cannot write .*keep: it is a folder/);
    expect(statSync(join(dir, 'keep')).isDirectory()).toBe(true);
  });
});

// A few kill moments here; `make soak` runs many (tests/soak/killedOutputs.soak.test.ts).
describeKilledOutputs(scratch, { manyFiles: [0, 400, 1000], verilogAll: [0, 16] });
