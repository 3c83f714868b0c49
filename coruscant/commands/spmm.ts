import type { Argv, CommandModule } from 'yargs';
import { refuseOutputsOverInputs, takeRenamedOption, UserError } from '../../api/plugin.ts';
import { startProgress } from '../../api/plugin.ts';
import { spmm } from '../golden/models/spmm.ts';
import { readFp16Matrix, readFp32Matrix, writeFp32Matrix } from '../golden/io/npy.ts';
import { zerosFp32, type Fp16Matrix, type Fp32Matrix } from '../golden/matrix.ts';
import { spmmOnRtl } from '../mma/spmmOnRtl.ts';
import { createEngine } from '../../api/engines.ts';
import type { Engine, EngineName } from '../../api/engines.ts';
import { GPU_MEMORY_PROFILES } from '../../gpu/memory/profiles.ts';
import { runDecodeModel, runSpmmModel, SYSTEM_MODEL_OPTIONS, type SystemModelArgs } from './gpuModelOptions.ts';

/** Computes D = A·B + C bit-exactly in the docs/spec.md §2 order; RTL-backed engines join this table. */
type SpmmEngine = (A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix) => Fp32Matrix | Promise<Fp32Matrix>;

/** The RTL (MmaBench) on an engine, created once per process. */
const onRtl = (name: EngineName): SpmmEngine => {
  let engine: Promise<Engine> | undefined;
  return async (A, B, C) => spmmOnRtl(await (engine ??= createEngine(name)), A, B, C);
};

const SPMM_ENGINES = {
  golden: spmm,
  ts: onRtl('ts'),
  verilator: onRtl('verilator'),
} satisfies Record<string, SpmmEngine>;

type SpmmEngineName = keyof typeof SPMM_ENGINES;

interface SpmmArgs extends Omit<SystemModelArgs, 'out'> {
  model?: boolean;
  a: unknown;
  b: unknown;
  c?: unknown;
  out: unknown;
  compute: SpmmEngineName;
}

interface SpmmFiles {
  a: string;
  b: string;
  c?: string;
  out: string;
}

/** A file option's value; yargs turns a repeated option into an array and a bare one into ''. */
function fileOption(option: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new UserError(`give --${option} exactly once, with a file name`);
  return value;
}

const shape = (matrix: { rows: number; cols: number }): string => `${matrix.rows}×${matrix.cols}`;

/** Reads and checks the operands, naming the offending file in every error. */
function readOperands(argv: SpmmFiles): { A: Fp16Matrix; B: Fp16Matrix; C: Fp32Matrix } {
  const A = readFp16Matrix(argv.a);
  const B = readFp16Matrix(argv.b);
  if (A.cols !== B.rows) {
    throw new UserError(
      `cannot multiply ${argv.a} (${shape(A)}) by ${argv.b} (${shape(B)}): A's ${A.cols} columns must equal B's rows`,
    );
  }
  if (argv.c === undefined) return { A, B, C: zerosFp32(A.rows, B.cols) };
  const C = readFp32Matrix(argv.c);
  if (C.rows !== A.rows || C.cols !== B.cols) {
    throw new UserError(`${argv.c} is ${shape(C)} but A·B is ${A.rows}×${B.cols}`);
  }
  return { A, B, C };
}

/** Rows of A per engine call: small enough for a live progress bar, large enough to amortize B. */
const ROWS_PER_SLAB = 64;

/** Rows r0 … r1 − 1 of a row-major matrix, as a view. */
function rowSlab<M extends Fp16Matrix | Fp32Matrix>(matrix: M, r0: number, r1: number): M {
  return { ...matrix, rows: r1 - r0, bits: matrix.bits.subarray(r0 * matrix.cols, r1 * matrix.cols) };
}

/**
 * Runs the engine on slabs of rows, with a progress bar: every output depends only on its own
 * row of A (and of C), so cutting M changes no result bit.
 */
async function multiplyInRowSlabs(
  engine: SpmmEngine,
  A: Fp16Matrix,
  B: Fp16Matrix,
  C: Fp32Matrix,
): Promise<Fp32Matrix> {
  const D = zerosFp32(A.rows, B.cols);
  const progress = startProgress('spmm rows', A.rows);
  try {
    for (let r0 = 0; r0 < A.rows; r0 += ROWS_PER_SLAB) {
      const r1 = Math.min(A.rows, r0 + ROWS_PER_SLAB);
      const slab = await engine(rowSlab(A, r0, r1), B, rowSlab(C, r0, r1));
      D.bits.set(slab.bits, r0 * B.cols);
      progress.tick(r1 - r0);
    }
  } finally {
    progress.stop();
  }
  return D;
}

export const spmmCommand: CommandModule<object, SpmmArgs> = {
  command: 'spmm',
  builder: (yargs: Argv) =>
    yargs
      .option('a', { type: 'string', describe: 'A: M×K float16 .npy (the weights; zeros are pruned positions)' })
      .option('b', { type: 'string', describe: 'B: K×N float16 .npy (the activations)' })
      .option('c', { type: 'string', describe: 'C: M×N float32 .npy accumulator input (default +0)' })
      .option('out', { type: 'string', describe: 'D: M×N float32 .npy, written atomically' })
      .option('engine', { choices: Object.keys(SPMM_ENGINES), hidden: true, describe: 'old name of --compute' })
      .middleware((args) => takeRenamedOption(args, 'engine', 'compute'))
      .option('compute', {
        choices: Object.keys(SPMM_ENGINES) as SpmmEngineName[],
        default: 'golden' as SpmmEngineName,
        describe:
          'what computes D: the golden TypeScript model, or the MmaUnit RTL as Coruscant MMAs (ts: in-process simulator, verilator)',
      })
      .option('model', {
        type: 'boolean',
        describe:
          "instead of computing D: model the kernels' time on a GPU (--profile, --shape, --n, --sparsity, --kernel; docs/spec.md §7)",
      })
      .option('profile', {
        choices: Object.keys(GPU_MEMORY_PROFILES),
        default: 'rtx6000ada',
        describe: 'with --model: GPU profile',
      })
      .option('json', { type: 'boolean', default: false, describe: 'with --model: print the result as JSON' })
      .option('seed', { type: 'number', default: 1, describe: 'with --model: seed of the random pruning mask' })
      .options(
        Object.fromEntries(
          ['kernel', 'shape', 'n', 'sparsity', 'split-k', 'sample', 'decode', 'n-values'].map((name) => [
            name,
            {
              ...SYSTEM_MODEL_OPTIONS[name],
              describe: `with --model: ${String(SYSTEM_MODEL_OPTIONS[name]!.describe)}`,
            },
          ]),
        ),
      ) as unknown as Argv<SpmmArgs>,
  handler: async (argv) => {
    if (argv.model && argv.decode !== undefined) return runDecodeModel({ ...argv, out: '' });
    if (argv.model) return runSpmmModel({ ...argv, out: '' });
    const files: SpmmFiles = {
      a: fileOption('a', argv.a),
      b: fileOption('b', argv.b),
      ...(argv.c === undefined ? {} : { c: fileOption('c', argv.c) }),
      out: fileOption('out', argv.out),
    };
    refuseOutputsOverInputs({ '--a': files.a, '--b': files.b, '--c': files.c }, { '--out': files.out });
    const { A, B, C } = readOperands(files);
    const D = await multiplyInRowSlabs(SPMM_ENGINES[argv.compute], A, B, C);
    writeFp32Matrix(files.out, D);
    process.stdout.write(`wrote ${files.out}: ${shape(D)} float32 (${argv.compute})\n`);
  },
};
