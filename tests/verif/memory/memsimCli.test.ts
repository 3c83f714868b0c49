import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../common/errors.ts';
import { parseByteCount } from '../../../gen/cli/commands/memsim.ts';

// The `gen memsim` command (gen/cli/commands/memsim.ts), end to end through bin/gen.js.
const root = resolve(import.meta.dirname, '../../..');
const gen = (...args: string[]) => execa('node', [join(root, 'bin/gen.js'), ...args], { reject: false, cwd: root });

describe('gen memsim', () => {
  it('prints a DRAM-bound stream as JSON and a stride report as text; a bad size is one line and exit 1', async () => {
    const [stream, stride, bad] = await Promise.all([
      gen('memsim', '--profile', 'rtx4090', '--pattern', 'stream', '--bytes', '4MiB', '--json'),
      gen('memsim', '--pattern', 'stride', '--bytes', '1M', '--stride', '4K', '--requests', '5000'),
      gen('memsim', '--pattern', 'random', '--bytes', 'lots'),
    ]);
    expect(stream.exitCode, stream.stderr).toBe(0);
    const result = JSON.parse(stream.stdout) as { profile: string; bytes: { dramToL2: number }; boundingResource: string };
    expect(result.profile).toBe('rtx4090');
    expect(result.bytes.dramToL2).toBe(4 * 2 ** 20);
    expect(result.boundingResource).toBe('dramChannel');
    expect(stride.exitCode, stride.stderr).toBe(0);
    expect(stride.stdout).toMatch(/^profile +rtx6000ada$/m);
    expect(stride.stdout).toMatch(/^bound by /m);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual(['gen: --bytes lots: give a positive byte count such as 4096, 64MiB or 2G']);
  });

  it('reads byte counts with binary units', () => {
    expect(parseByteCount('bytes', '4096')).toBe(4096);
    expect(parseByteCount('bytes', '64MiB')).toBe(64 * 2 ** 20);
    expect(parseByteCount('bytes', '2G')).toBe(2 ** 31);
    expect(parseByteCount('bytes', '8kB')).toBe(8192);
    expect(() => parseByteCount('bytes', '0')).toThrow(UserError);
    expect(() => parseByteCount('stride', '1.5M')).toThrow(/--stride/);
  });
});
