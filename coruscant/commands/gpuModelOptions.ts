import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Options } from 'yargs';
import { writeFileAtomic } from '../../api/plugin.ts';
import { UserError } from '../../api/plugin.ts';
import { startProgress } from '../../api/plugin.ts';
import { formatMemoryPathResult } from '../../gpu/memory/formatResult.ts';
import { checkSparsity } from '../golden/pruning/sparsity.ts';
import { sweepFigures } from '../../gpu/system/figures.ts';
import { parseShape, SPMM_KERNELS } from '../../gpu/system/kernels.ts';
import { comparisonTable, formatKernelTiming, formatSweep } from '../../gpu/system/report.ts';
import { kernelsNamed, runModel } from '../../gpu/system/run.ts';
import { measureTensorCore, runSweep } from '../../gpu/system/sweep.ts';
import { decodeTable, decodeThroughput, LLAMA2_7B } from '../../gpu/system/decode.ts';
import { memoryProfile } from '../../gpu/memory/profiles.ts';
import { randomLayout } from '../../gpu/system/sparseLayout.ts';

/**
 * The system-model options of `gen memsim` (--kernel, --sweep) and `gen spmm --model`, and their
 * handlers; kept here so the two commands share one definition.
 */
export interface SystemModelArgs {
  profile: string;
  kernel?: string;
  shape: string;
  n: number;
  sparsity: number;
  'split-k'?: number;
  sample?: number;
  'store-cycles'?: number;
  'rotating-copies'?: number;
  seed: number;
  sweep?: boolean;
  shapes: string;
  sparsities: string;
  'n-values': string;
  'sector-budget': number;
  out: string;
  json: boolean;
  decode?: string;
}

export const SYSTEM_MODEL_OPTIONS: Record<string, Options> = {
  kernel: {
    type: 'string',
    describe: `SpMM kernel whose address trace to model: ${SPMM_KERNELS.join(', ')} (gen spmm --model also takes all)`,
  },
  shape: { type: 'string', default: '9216x9216', describe: 'weight matrix A as MxK (M a multiple of 256, K of 64)' },
  n: { type: 'number', default: 8, describe: 'columns of B (the batch; 8 = decode)' },
  sparsity: {
    type: 'number',
    default: 0.5,
    describe: 'fraction of A pruned, in [0, 1) (a seeded random unstructured mask)',
  },
  'split-k': { type: 'number', describe: 'K splits (default: the fewest, fullest waves, up to 16)' },
  sample: {
    type: 'number',
    describe:
      'simulate the requests of about 1 in this many DRAM channels (stratified by channel type; all channels if those do not finish together) in the memory model (default 1: all)',
  },
  'store-cycles': {
    type: 'number',
    describe:
      'with --kernel (or gen spmm --model): a what-if, SM cycles per scattered 16-bit shared-memory store of the decompression, one queue for the co-resident blocks (default 0, as the profiles; gpu/probes/README.md)',
  },
  'rotating-copies': {
    type: 'number',
    describe:
      "with --kernel (or gen spmm --model): copies of the weights the timed launches take in turn, so that the L2 keeps what fits of a copy until its next turn (default: the profile's measurements, 4 on h200 as its harness; 0: every launch from DRAM, as Nsight Compute flushes)",
  },
  sweep: {
    type: 'boolean',
    describe: 'sweep shapes × sparsities × kernels (and N) and write SVG figures and a table to --out',
  },
  shapes: { type: 'string', default: '7168x7168,9216x9216', describe: 'with --sweep: shapes, comma-separated' },
  sparsities: { type: 'string', default: '0.3,0.4,0.5,0.6,0.7', describe: 'with --sweep: sparsities, comma-separated' },
  'n-values': {
    type: 'string',
    default: '8,32,128,256',
    describe: 'with --sweep: N values of the speedup-vs-N figure (first shape, 50 %); "" for none',
  },
  'sector-budget': {
    type: 'number',
    default: 300000,
    describe:
      'with --sweep: sector requests simulated per kernel run (never fewer than one DRAM channel of each type per L2 partition)',
  },
  decode: {
    type: 'string',
    describe:
      'tokens/s of LLM decode (llama2-7b): every projection of every layer modeled at each --n-values N (default 1,2,4,8,16), dense, Coruscant kernel and STC at --sparsity',
  },
  out: {
    type: 'string',
    default: 'system-sweep',
    describe: 'with --sweep: folder for the SVG figures, sweep.json and table.md',
  },
};

function numberList(option: string, text: string): number[] {
  if (text.trim() === '') return [];
  return text.split(',').map((item) => {
    const value = Number(item);
    if (item.trim() === '' || !Number.isFinite(value))
      throw new UserError(`--${option} ${text}: give numbers separated by commas`);
    return value;
  });
}

/** The model run `memsim --kernel` and `spmm --model` share: the shape, kernels and options of `argv`. */
function modelRun(argv: SystemModelArgs, defaultKernel: string): ReturnType<typeof runModel> {
  const { m, k } = parseShape(argv.shape);
  return runModel({
    profile: argv.profile,
    kernels: kernelsNamed(argv.kernel ?? defaultKernel),
    shape: { m, k, n: argv.n },
    sparsity: argv.sparsity,
    seed: argv.seed,
    ...(argv['split-k'] === undefined ? {} : { splitK: argv['split-k'] }),
    ...(argv.sample === undefined ? {} : { sample: argv.sample }),
    ...(argv['store-cycles'] === undefined ? {} : { storeCycles: argv['store-cycles'] }),
    ...(argv['rotating-copies'] === undefined ? {} : { rotatingCopies: argv['rotating-copies'] }),
  });
}

/** `gen memsim --kernel K`: one kernel's trace through the memory path, and its modeled time. */
export async function runMemsimKernel(argv: SystemModelArgs): Promise<void> {
  const run = await modelRun(argv, '');
  const timing = run.timings[0]!;
  process.stdout.write(
    argv.json
      ? `${JSON.stringify({ ...timing, tensorCore: run.mma, numerics: run.numerics }, null, 2)}\n`
      : `${formatMemoryPathResult(timing.memory)}\n${formatKernelTiming(timing)}`,
  );
}

/** `gen spmm --model`: the modeled time of one or all kernels, with speedups. */
export async function runSpmmModel(argv: SystemModelArgs): Promise<void> {
  const run = await modelRun(argv, 'all');
  if (argv.json) {
    process.stdout.write(
      `${JSON.stringify({ tensorCore: run.mma, numerics: run.numerics, kernels: run.timings }, null, 2)}\n`,
    );
    return;
  }
  const header = `tensor core ${run.mma.periodCycles} + ${run.mma.latencyCycles} cycles per MMA (${run.mma.source}); ${run.numerics.mmas} sampled MMAs on the RTL equal golden\n\n`;
  process.stdout.write(
    header +
      run.timings.map(formatKernelTiming).join('\n') +
      (run.timings.length > 1 ? `\n${comparisonTable(run.timings)}` : ''),
  );
}

/** The what-ifs of one problem (the store path, the launches' rotation): a sweep or a decode run refuses them rather than ignore them. */
function refuseWhatIfs(argv: SystemModelArgs, mode: string): void {
  for (const flag of ['store-cycles', 'rotating-copies'] as const)
    if (argv[flag] !== undefined)
      throw new UserError(`--${flag} is a what-if for one kernel (--kernel), not for ${mode}`);
}

/** `gen memsim --sweep`: the paper-style figures, sweep.json and table.md in --out. */
export async function runMemsimSweep(argv: SystemModelArgs): Promise<void> {
  refuseWhatIfs(argv, '--sweep');
  const sparsities = numberList('sparsities', argv.sparsities);
  sparsities.forEach(checkSparsity);
  const shapes = argv.shapes.split(',').map(parseShape);
  if (!(Number.isSafeInteger(argv['sector-budget']) && argv['sector-budget'] > 0))
    throw new UserError(`--sector-budget ${argv['sector-budget']}: give a positive whole number`);
  let progress: ReturnType<typeof startProgress> | undefined;
  const result = await runSweep({
    profile: argv.profile,
    shapes,
    sparsities,
    n: argv.n,
    nValues: numberList('n-values', argv['n-values']),
    nSweepSparsity: 0.5,
    seed: argv.seed,
    sectorBudget: argv['sector-budget'],
    ...(argv['split-k'] === undefined ? {} : { splitK: argv['split-k'] }),
    onRun: (done, total) => {
      progress ??= startProgress('system sweep', total);
      progress.tick();
      if (done === total) progress.stop();
    },
  });
  mkdirSync(argv.out, { recursive: true });
  const written = Object.entries(sweepFigures(result)).map(([name, text]) => {
    writeFileAtomic(join(argv.out, name), text);
    return name;
  });
  writeFileAtomic(join(argv.out, 'sweep.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileAtomic(join(argv.out, 'table.md'), comparisonTable(result.runs));
  process.stdout.write(
    `${formatSweep(result)}wrote ${[...written, 'sweep.json', 'table.md'].map((name) => join(argv.out, name)).join(', ')}\n`,
  );
}

/** `gen spmm --model --decode llama2-7b`: decode tokens/s from the modeled projections. */
export async function runDecodeModel(argv: SystemModelArgs): Promise<void> {
  refuseWhatIfs(argv, '--decode');
  if (argv.decode !== LLAMA2_7B.name) throw new UserError(`--decode ${argv.decode}: choose ${LLAMA2_7B.name}`);
  memoryProfile(argv.profile);
  checkSparsity(argv.sparsity);
  const nValues = argv['n-values'] === '8,32,128,256' ? [1, 2, 4, 8, 16] : numberList('n-values', argv['n-values']);
  const { mma, numerics } = await measureTensorCore(randomLayout(256, 256, argv.sparsity, argv.seed), argv.seed);
  if (numerics.mismatches > 0) throw new Error(`RTL lane disagrees with golden SpMM: ${numerics.firstMismatch ?? ''}`);
  let progress: ReturnType<typeof startProgress> | undefined;
  const results = decodeThroughput(
    argv.profile,
    LLAMA2_7B,
    ['dense', 'coruscant', 'stc'],
    nValues,
    argv.sparsity,
    mma,
    argv.seed,
    (done, total) => {
      progress ??= startProgress('decode projections', total);
      progress.tick();
      if (done === total) progress.stop();
    },
  );
  process.stdout.write(
    argv.json
      ? `${JSON.stringify(results, null, 2)}\n`
      : `${LLAMA2_7B.name} decode on ${argv.profile}, weights at ${Math.round(100 * argv.sparsity)} % sparsity (projections only)\n\n${decodeTable(results)}`,
  );
}
