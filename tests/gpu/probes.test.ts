/**
 * The silicon probes (gpu/probes/README.md) are CUDA programs for a machine with an H200; here
 * they can only be compiled. This test compiles each for sm_90 with the CUDA toolkit when one is
 * installed (NVCC, `nvcc` on the PATH, or /usr/local/cuda*), and checks what would make a probe's
 * figure wrong without a GPU to show it: the extract probe must fit three blocks of 128 threads
 * per SM (at most 168 registers, as the harness's Flash-LLM at 155) and spill nothing, or its
 * loop would time local-memory traffic the kernel does not have.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTool } from '../../tools/runTool.ts';
import { onPath } from '../../tools/toolchain.ts';

function findNvcc(): string | undefined {
  if (process.env.NVCC) return process.env.NVCC;
  if (onPath('nvcc')) return 'nvcc';
  const installs = existsSync('/usr/local') ? readdirSync('/usr/local').filter((d) => d.startsWith('cuda')) : [];
  return installs.map((d) => `/usr/local/${d}/bin/nvcc`).find((path) => existsSync(path));
}

const nvcc = findNvcc();
const PROBES = join(import.meta.dirname, '../../gpu/probes');
const out = mkdtempSync(join(tmpdir(), 'gen-probes-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** ptxas's resource lines per kernel: registers and spill bytes. */
async function compile(probe: string): Promise<{ registers: number[]; spills: number[] }> {
  const run = await runTool(
    nvcc!,
    [
      '-O3',
      '-gencode',
      'arch=compute_90,code=sm_90',
      '-Xptxas',
      '-v',
      '-o',
      join(out, probe),
      join(PROBES, `${probe}.cu`),
    ],
    { timeout: 120_000, name: 'nvcc' },
  );
  const text = run.stdout + run.stderr;
  return {
    registers: [...text.matchAll(/Used (\d+) registers/g)].map((m) => Number(m[1])),
    spills: [...text.matchAll(/(\d+) bytes spill stores/g)].map((m) => Number(m[1])),
  };
}

describe.skipIf(nvcc === undefined)('silicon probes compile for sm_90', () => {
  it('l2Partitions: every kernel without spills', async () => {
    const { registers, spills } = await compile('l2Partitions');
    expect(registers.length).toBeGreaterThanOrEqual(4);
    expect(spills.every((bytes) => bytes === 0)).toBe(true);
  }, 180_000);

  it('l2Replacement: the timed walk without spills (its bits and histogram live in shared memory)', async () => {
    const { registers, spills } = await compile('l2Replacement');
    expect(registers).toHaveLength(1);
    expect(spills).toEqual([0]);
  }, 180_000);

  it('smClock: its three kernels without spills, so a block times its own work, not local-memory traffic', async () => {
    const { registers, spills } = await compile('smClock');
    expect(registers).toHaveLength(3);
    expect(spills).toEqual([0, 0, 0]);
  }, 180_000);

  it('gridBurst: its seven burst sizes fit three blocks of 128 threads per SM, as Flash-LLM, without spills', async () => {
    const { registers, spills } = await compile('gridBurst');
    expect(registers).toHaveLength(7);
    expect(Math.max(...registers) * 128 * 3).toBeLessThanOrEqual(65_536);
    expect(spills).toEqual([0, 0, 0, 0, 0, 0, 0]);
  }, 180_000);

  it('tileBurst: its 16 kernels (8 burst sizes, L1 or L2 only) without spills', async () => {
    const { registers, spills } = await compile('tileBurst');
    expect(registers).toHaveLength(16);
    expect(spills).toEqual(Array.from({ length: 16 }, () => 0));
  }, 180_000);

  it("stsScatter: three blocks of 128 threads fit an SM's 64 K registers, and nothing spills (16- and 32-bit stores)", async () => {
    const { registers, spills } = await compile('stsScatter');
    expect(registers).toHaveLength(2);
    expect(Math.max(...registers) * 128 * 3).toBeLessThanOrEqual(65_536);
    expect(spills).toEqual([0, 0]);
  }, 180_000);
});
