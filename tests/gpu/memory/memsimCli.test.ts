import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArgumentsCamelCase } from 'yargs';
import { UserError } from '../../../common/errors.ts';
import { memsimCommand, parseByteCount } from '../../../coruscant/commands/memsim.ts';

// The `gen memsim` command (coruscant/commands/memsim.ts): once end to end through bin/gen.js, the rest in-process.
const root = resolve(import.meta.dirname, '../../..');

type MemsimArgv = Parameters<NonNullable<typeof memsimCommand.handler>>[0];
const argv = (options: Record<string, unknown>): MemsimArgv =>
  ({
    _: ['memsim'],
    $0: 'gen',
    profile: 'rtx6000ada',
    seed: 1,
    json: false,
    ...options,
  }) as unknown as ArgumentsCamelCase<MemsimArgv>;

/** Runs the handler and returns what it printed. */
async function runHandler(options: Record<string, unknown>): Promise<string> {
  const chunks: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  await memsimCommand.handler(argv(options));
  return chunks.join('');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('gen memsim', () => {
  it('runs through bin/gen.js: a DRAM-bound stream as JSON', async () => {
    const stream = await execa(
      'node',
      [
        join(root, 'bin/gen.js'),
        ...['memsim', '--profile', 'rtx4090', '--pattern', 'stream', '--bytes', '4MiB', '--warps-per-sm', '8'],
        ...['--in-flight', '4', '--json'],
      ],
      {
        reject: false,
        cwd: root,
      },
    );
    expect(stream.exitCode, stream.stderr).toBe(0);
    const result = JSON.parse(stream.stdout) as {
      profile: string;
      timeNs: number;
      bytes: number;
      GBps: number;
      bytesInFlightPerSm: number;
      path: { bytes: { dramToL2: number }; boundingResource: string };
    };
    expect(result.profile).toBe('rtx4090');
    // 8 warps × 32 threads × 16 B × 4 in flight per SM; every byte once from DRAM, delivered to the SMs.
    expect(result.bytesInFlightPerSm).toBe(16384);
    expect(result.bytes).toBe(4 * 2 ** 20);
    expect(result.path.bytes.dramToL2).toBe(4 * 2 ** 20);
    expect(result.GBps).toBeCloseTo(result.bytes / result.timeNs, 9);
    expect(result.GBps).toBeLessThan(1008);
  });

  it('prints a text report of a strided pattern and a chase', async () => {
    const base = { 'warps-per-sm': 1, 'in-flight': 1, warm: false };
    const text = await runHandler({ ...base, pattern: 'stride', bytes: '1M', stride: '4K', 'loads-per-thread': 1 });
    expect(text).toMatch(/^profile +rtx6000ada$/m);
    // 142 SMs × 1 warp × 32 threads × 1 load.
    expect(text).toMatch(/^sector requests +4544$/m);
    expect(text).toMatch(/^bound by /m);
    // One warp per SM, one step each: the warps end within one step's spread of the median.
    expect(text).toMatch(/^warp ends +median \d+\.\d\d µs; 5th percentile 0\.\d{3}, last 1\.\d{3} of it$/m);
    const chase = await runHandler({ ...base, pattern: 'chase', bytes: '64KiB', requests: 100, warm: true });
    // A warm 64 KiB walk stays in L1: the profile's 40-cycle hit.
    expect(chase).toMatch(/^per dependent load +\d+\.\d ns = 36\.0 SM cycles$/m);
    expect(chase).not.toMatch(/^warp ends/m);
    // The grid's blocks: 256 threads where 8 warps divide the SM's, else as few an SM as fit 1,024
    // threads (36 warps: two of 18), or as given.
    expect(text).toMatch(/^pattern +stride: 1 warps per SM in blocks of 32 threads, 1 loads in flight/m);
    for (const [warps, given, threads] of [
      [8, undefined, 256],
      [8, 64, 64],
      [36, undefined, 576],
    ] as const) {
      const random = { ...base, pattern: 'random', bytes: '1M', 'warps-per-sm': warps, 'loads-per-thread': 1 };
      const report = await runHandler(given === undefined ? random : { ...random, 'threads-per-block': given });
      expect(report).toMatch(
        new RegExp(`^pattern +random: ${warps} warps per SM in blocks of ${threads} threads`, 'm'),
      );
    }
    expect(chase).toMatch(/^pattern +chase: 1 warps per SM, 1 loads in flight/m);
  });

  it('turns bad sizes and counts into UserErrors', async () => {
    await expect(runHandler({ pattern: 'stream', bytes: '1M', 'warps-per-sm': 0, 'in-flight': 4 })).rejects.toThrow(
      '--warps-per-sm 0: give a whole number 1 … 1024',
    );
    for (const threads of [48, 0, 2048, 96])
      await expect(
        runHandler({ pattern: 'stream', bytes: '1M', 'warps-per-sm': 8, 'threads-per-block': threads }),
      ).rejects.toThrow(
        `--threads-per-block ${threads}: give a multiple of 32 up to 1024 whose warps divide --warps-per-sm 8`,
      );
    await expect(runHandler({ pattern: 'random', bytes: 'lots' })).rejects.toThrow(
      '--bytes lots: give a positive byte count such as 4096, 64MiB or 2G',
    );
    await expect(runHandler({ pattern: 'random', bytes: '1M', requests: -3 })).rejects.toThrow(UserError);
    await expect(runHandler({ pattern: 'stream', bytes: '1M', 'l1-data-bytes': '1K' })).rejects.toThrow(UserError);
    // The what-if store path is for one kernel: a sweep refuses it instead of ignoring it.
    await expect(runHandler({ sweep: true, 'store-cycles': 13, out: 'unused' })).rejects.toThrow(
      '--store-cycles is a what-if for one kernel (--kernel), not for --sweep',
    );
    await expect(runHandler({ sweep: true, 'rotating-copies': 0, out: 'unused' })).rejects.toThrow(
      '--rotating-copies is a what-if for one kernel (--kernel), not for --sweep',
    );
  });

  it('refuses, at once, a pattern run too big to simulate (a footprint, a stream or a chase past 2^25)', async () => {
    const started = performance.now();
    await expect(runHandler({ pattern: 'stream', bytes: '999999G' })).rejects.toThrow(
      /--bytes: the run needs .* lines/,
    );
    await expect(runHandler({ pattern: 'stream', bytes: '1G', 'total-bytes': '999999G' })).rejects.toThrow(
      /the run needs .* warp loads/,
    );
    await expect(runHandler({ pattern: 'chase', bytes: '1M', requests: 2 ** 40 })).rejects.toThrow(
      /--requests: the run needs/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
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
