/**
 * The silicon probes (gpu/probes/README.md) are CUDA programs for a machine with an H200; here
 * they can only be compiled. This test compiles each one's device code for sm_90 with the CUDA
 * toolkit when one is installed (NVCC, `nvcc` on the PATH, or /usr/local/cuda*), and checks what
 * would make a probe's figure wrong without a GPU to show it: the extract probe must fit three
 * blocks of 128 threads per SM (at most 168 registers, as the harness's Flash-LLM at 155) and
 * spill nothing, or its loop would time local-memory traffic the kernel does not have. Only the
 * device code (`-cubin`): the host code's g++ pass took two thirds of each compile and decides
 * nothing checked here; gpu/probes/h200Batch.sh builds the whole programs on the device. That
 * script's answer to an unknown step is checked too: it must name every step it has.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

/** ptxas's resource lines per kernel: registers and spill bytes, and the kernels' mangled names in that order. */
async function compile(
  source: string,
  extra: readonly string[] = [],
): Promise<{ registers: number[]; spills: number[]; kernels: string[] }> {
  const file = source.endsWith('.cu') ? source : join(PROBES, `${source}.cu`);
  const run = await runTool(
    nvcc!,
    [
      '-O3',
      '-gencode',
      'arch=compute_90,code=sm_90',
      '-cubin',
      '-Xptxas',
      '-v',
      ...extra,
      '-o',
      join(out, `${basename(file)}.cubin`),
      file,
    ],
    { timeout: 120_000, name: 'nvcc' },
  );
  const text = run.stdout + run.stderr;
  return {
    registers: [...text.matchAll(/Used (\d+) registers/g)].map((m) => Number(m[1])),
    spills: [...text.matchAll(/(\d+) bytes spill stores/g)].map((m) => Number(m[1])),
    kernels: [...text.matchAll(/Compiling entry function '(\w+)'/g)].map((m) => m[1]!),
  };
}

/** The paper's harness, where a checkout has it (gpu/probes/README.md); CI does not. */
const HARNESS = join(import.meta.dirname, '../../.harness/kernel_sources');
const HARNESS_FLAGS = ['--use_fast_math', '-maxrregcount=255'];

/** Per kernel markKernel.sh marks: the harness's sources, its API file, the lifetime probe, the macro naming the API file, and the kernel for N = 8 (TilingConfig<4, 1, 1, 1>) every harness run uses. */
const MARKED = {
  stc: {
    csrc: join(HARNESS, 'coruscant_stc/csrc'),
    api: 'Coruscant_STC_SpMM_API.cu',
    probe: 'stcLifetime',
    define: 'STC_KERNEL_SOURCE',
    n8: 'Coruscant_STC_SpMM_KernelI12TilingConfigILi4ELi1ELi1ELi1EE',
  },
  flashllm: {
    csrc: join(HARNESS, 'flash_llm/csrc'),
    api: 'FlashLLM_SpMM_API.cu',
    probe: 'flashLifetime',
    define: 'FLASH_KERNEL_SOURCE',
    n8: 'FlashLLM_SpMM_KernelI12TilingConfigILi4ELi1ELi1ELi1EE',
  },
} as const;

async function markKernel(kernel: string, source: string, dest: string) {
  return runTool('bash', [join(PROBES, 'markKernel.sh'), kernel, source, dest], {
    timeout: 30_000,
    name: 'markKernel',
  });
}

/** The marks' lines of a marked SpMM_Kernel.cuh, in order. */
function marksOf(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^BLOCK_(ITERATION_)?MARK\(/.test(line));
}

describe('markKernel.sh', () => {
  const stcAnchors = [
    '{',
    '    const int BatchID     = blockIdx.y / 1;',
    '#pragma unroll(1) //unroll exactly once.',
    '    for (;;) {',
    '        StartTileIdx += 64;',
    '    }',
    '     //add epliogue',
    '            BlockGlobalPTR[j + i * M_Global] = 0;',
    '}',
  ];
  // Flash-LLM's file holds a second kernel with the same lines, which keeps its own.
  const flashKernel = [
    '{',
    '    const int BatchID     = blockIdx.y / 1;',
    '#pragma unroll(1)',
    '    for (;;) {',
    '        cp_async_wait_group<0>();  // Sync to ensure the completion of Loading B to shared memory',
    '        __syncthreads();',
    '    }',
    '    // Store the C fragments to shared memory.',
    '            BlockGlobalPTR[j + i * M_Global] = 0;',
    '}',
  ];
  const flashAnchors = [
    '__global__ void FlashLLM_SpMM_Kernel(int Split_K)',
    ...flashKernel,
    '__global__ void SpMM_Kernel(int Split_K)',
    ...flashKernel,
  ];

  it.each([
    ['stc', stcAnchors, stcAnchors[1]!, stcAnchors[4]!, stcAnchors[7]!],
    ['flashllm', flashAnchors, flashAnchors[2]!, flashAnchors[6]!, flashAnchors[9]!],
  ])(
    '%s: one mark before the block starts, before the loop, at the end of each iteration, before the epilogue and after the stores',
    async (kernel, anchors, start, iterationEnd, store) => {
      const source = join(out, `${kernel}Source`);
      mkdirSync(source, { recursive: true });
      writeFileSync(join(source, 'SpMM_Kernel.cuh'), anchors.join('\n') + '\n');
      await markKernel(kernel, source, join(out, `${kernel}MarkedSynthetic`));
      const file = join(out, `${kernel}MarkedSynthetic`, 'SpMM_Kernel.cuh');
      const marked = readFileSync(file, 'utf8').split('\n');
      expect(marksOf(file)).toEqual([
        'BLOCK_MARK(0);',
        'BLOCK_MARK(1);',
        'BLOCK_ITERATION_MARK(tile_id_k);',
        'BLOCK_MARK(2);',
        'BLOCK_MARK(3);',
      ]);
      expect(marked.indexOf('BLOCK_MARK(0);')).toBe(marked.indexOf(start) - 1);
      expect(marked.indexOf('BLOCK_ITERATION_MARK(tile_id_k);')).toBe(marked.indexOf(iterationEnd) + 1);
      expect(marked.indexOf('BLOCK_MARK(3);')).toBe(marked.indexOf(store) + 1);
    },
  );

  it('fails naming the anchor when the kernel has moved, rather than time an unmarked kernel', async () => {
    const source = join(out, 'stcMoved');
    mkdirSync(source);
    writeFileSync(join(source, 'SpMM_Kernel.cuh'), stcAnchors.filter((line) => !line.includes('epliogue')).join('\n'));
    const run = markKernel('stc', source, join(out, 'stcMarkedMoved'));
    await expect(run).rejects.toThrow(/anchor '\\\/\\\/add epliogue' not found once/);
    await expect(markKernel('cusparse', source, join(out, 'unknown'))).rejects.toThrow(/unknown kernel 'cusparse'/);
  });
});

describe.skipIf(nvcc === undefined)('silicon probes compile for sm_90', () => {
  it('l2Partitions: every kernel without spills; the whole-grid streams fit 8 blocks of 256 threads an SM', async () => {
    const { registers, spills, kernels } = await compile('l2Partitions');
    expect(registers.length).toBeGreaterThanOrEqual(4);
    expect(registers).toHaveLength(kernels.length);
    expect(spills.every((bytes) => bytes === 0)).toBe(true);
    // At 33 registers or more a quarter of the grid waits for a second wave, and the probe times
    // another configuration than the model's (rotsteps' first run on silicon did, at 39).
    for (const kernel of [
      '_Z11streamFixedILi4EL8LoadKind0EEvPK5uint4miPj',
      '_Z14streamRotatingILi4EL8LoadKind0EEvPK5uint4mmPj',
      '_Z19streamRotatingStepsPK5uint4mmPjPyS2_',
      '_Z25streamRotatingByPartitionPK5uint4mmPKhjjPjS4_',
      '_Z20streamRotatingByHomePK5uint4PKj5uint2PKhS4_jPjS7_',
    ]) {
      expect(kernels, kernel).toContain(kernel);
      expect(registers[kernels.indexOf(kernel)]! * 256 * 8, kernel).toBeLessThanOrEqual(65_536);
    }
  }, 180_000);

  it('l2Replacement: the timed walk without spills (its bits and histogram live in shared memory)', async () => {
    const { registers, spills } = await compile('l2Replacement');
    expect(registers).toHaveLength(1);
    expect(spills).toEqual([0]);
  }, 180_000);

  it('dramClock: its flush and its timed reads (one SM, several) without spills; each read’s value lands in shared memory before the clock is read', async () => {
    const { registers, spills } = await compile('dramClock');
    expect(registers).toHaveLength(3);
    expect(spills).toEqual([0, 0, 0]);
    // An asm input alone did not make the clock wait for the load (the first build timed the issue).
    const ptx = join(out, 'dramClock.ptx');
    await runTool(nvcc!, ['-O3', '-arch=sm_90', '-ptx', '-o', ptx, join(PROBES, 'dramClock.cu')], {
      timeout: 120_000,
      name: 'nvcc',
    });
    const kernels = readFileSync(ptx, 'utf8')
      .split('.entry')
      .filter((entry) => entry.startsWith(' _Z11readClocked'));
    expect(kernels).toHaveLength(2);
    for (const timed of kernels) {
      const reads = [
        ...timed.matchAll(
          /ld\.global\.cg\.u32\s+(%r\d+)[^\n]*\n(?:[^\n]*\n){0,3}?\s*st\.volatile\.shared\.u32\s+\[[^\]]+\],\s*(%r\d+);[^\n]*\n(?:[^\n]*\n){0,2}?[^\n]*%clock64/g,
        ),
      ];
      expect(reads.length).toBeGreaterThan(0);
      for (const [, loaded, stored] of reads) expect(stored).toBe(loaded);
    }
  }, 180_000);

  it('hitsUnderLoad: one kernel without spills that fits 8 blocks of 256 threads an SM; each timed load’s value lands in shared memory before the clock is read; its series notes the globaltimer', async () => {
    const { registers, spills } = await compile('hitsUnderLoad');
    expect(registers).toHaveLength(1);
    expect(spills).toEqual([0]);
    // More registers and a stream block would wait for a second wave that never comes: the stream
    // runs until the walk's block, which might be the one left out, says it is done.
    expect(registers[0]! * 256 * 8).toBeLessThanOrEqual(65_536);
    const ptx = join(out, 'hitsUnderLoad.ptx');
    await runTool(nvcc!, ['-O3', '-arch=sm_90', '-ptx', '-o', ptx, join(PROBES, 'hitsUnderLoad.cu')], {
      timeout: 120_000,
      name: 'nvcc',
    });
    const text = readFileSync(ptx, 'utf8');
    expect(text).toMatch(/mov\.u64\s+%rd\d+, %globaltimer;/);
    const timed = [
      ...text.matchAll(
        /%clock64;[^\n]*\n(?:[^\n]*\n){0,6}?\s*ld\.global\.cg\.u32\s+(%r\d+)[^\n]*\n(?:[^\n]*\n){0,2}?\s*st\.volatile\.shared\.u32\s+\[[^\]]+\],\s*(%r\d+);[^\n]*\n(?:[^\n]*\n){0,2}?[^\n]*%clock64/g,
      ),
    ];
    expect(timed.length).toBeGreaterThan(0);
    for (const [, loaded, stored] of timed) expect(stored).toBe(loaded);
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

  it.skipIf(!existsSync(HARNESS)).each(Object.entries(MARKED))(
    "%s's lifetime probe: the marked kernel keeps the harness's three blocks per SM; the block marks add at most 2 registers, the iteration marks (-DBLOCK_ITERATION_MARKS) at most 5, and nothing spills",
    async (kernel, { csrc, api, probe: program, define, n8 }) => {
      const marked = join(out, `${kernel}Marked`);
      await markKernel(kernel, csrc, marked);
      const source = `-D${define}="${join(marked, api)}"`;
      const probe = await compile(program, [...HARNESS_FLAGS, source]);
      const iterations = await compile(program, [...HARNESS_FLAGS, source, '-DBLOCK_ITERATION_MARKS']);
      const plain = await compile(join(csrc, api), HARNESS_FLAGS);
      const registersOf = (build: typeof probe, name: string) =>
        build.registers[build.kernels.findIndex((k) => k.includes(name))]!;
      expect(plain.kernels.length).toBeGreaterThanOrEqual(5);
      for (const [build, most] of [
        [probe, 2],
        [iterations, 5],
      ] as const) {
        expect(registersOf(build, n8) * 128 * 3).toBeLessThanOrEqual(65_536);
        for (const kernel of plain.kernels) {
          const added = registersOf(build, kernel) - registersOf(plain, kernel);
          expect(added, kernel).toBeGreaterThanOrEqual(0);
          expect(added, kernel).toBeLessThanOrEqual(most);
        }
        expect(build.spills.every((bytes) => bytes === 0)).toBe(true);
      }
    },
    180_000,
  );
});

it('h200Batch.sh refuses an unknown step in one line that names every step it has', async () => {
  // OUT in the test's own folder: the script makes it before it reads the step.
  const run = await runTool(
    'bash',
    ['-c', 'OUT="$0" bash "$1" nosuchstep', join(out, 'batch'), join(PROBES, 'h200Batch.sh')],
    {
      acceptExitCodes: [2],
    },
  );
  expect(run.exitCode).toBe(2);
  const usage = run.stderr.trim();
  expect(usage.split('\n')).toHaveLength(1);
  const script = readFileSync(join(PROBES, 'h200Batch.sh'), 'utf8');
  const steps = [...script.matchAll(/^([a-z0-9]+)\)$/gm)].map((match) => match[1]);
  expect(steps.length).toBeGreaterThan(50);
  expect(usage).toBe(`usage: gpu/probes/h200Batch.sh ${steps.join('|')}`);
});
