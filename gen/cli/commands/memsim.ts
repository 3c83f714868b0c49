import type { Argv, CommandModule } from 'yargs';
import { UserError } from '../../../common/errors.ts';
import { formatMemoryPathResult } from '../../../gpu/memory/formatResult.ts';
import { simulateTrace } from '../../../gpu/memory/pathModel.ts';
import { MEMORY_PATTERNS, patternTrace, type MemoryPattern } from '../../../gpu/memory/patterns.ts';
import { GPU_MEMORY_PROFILES, memoryProfile } from '../../../gpu/memory/profiles.ts';
import type { MemoryTrace } from '../../../gpu/memory/requestTrace.ts';
import { runMemsimKernel, runMemsimSweep, SYSTEM_MODEL_OPTIONS, type SystemModelArgs } from '../gpuModelOptions.ts';

interface MemsimArgs extends SystemModelArgs {
  profile: string;
  pattern?: MemoryPattern;
  bytes?: string;
  stride?: string;
  requests?: number;
  seed: number;
  'l1-data-bytes'?: string;
  json: boolean;
}

const BYTE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  k: 2 ** 10,
  ki: 2 ** 10,
  m: 2 ** 20,
  mi: 2 ** 20,
  g: 2 ** 30,
  gi: 2 ** 30,
};

/** A byte count such as 4096, 64MiB or 2G (binary units); a UserError naming the option otherwise. */
export function parseByteCount(option: string, text: string): number {
  const match = /^(\d+)\s*([kmg]i?)?b?$/i.exec(text.trim());
  const value = match ? Number(match[1]) * BYTE_UNITS[(match[2] ?? '').toLowerCase()]! : NaN;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new UserError(`--${option} ${text}: give a positive byte count such as 4096, 64MiB or 2G`);
  return value;
}

/**
 * Where the trace comes from. Synthetic patterns now; the SpMM kernels' traces (`--kernel
 * dense|flashllm|coruscant|stc --shape MxK --n N --sparsity S`) join as a second source here.
 */
function buildTrace(argv: MemsimArgs, smCount: number): MemoryTrace {
  if (argv.requests !== undefined && !(Number.isSafeInteger(argv.requests) && argv.requests > 0)) {
    throw new UserError(`--requests ${argv.requests}: give a positive whole number`);
  }
  if (argv.pattern === undefined) throw new UserError('give --pattern, --kernel or --sweep');
  if (argv.bytes === undefined) throw new UserError(`--pattern ${argv.pattern} needs --bytes (e.g. 64MiB)`);
  return patternTrace({
    pattern: argv.pattern,
    bytes: parseByteCount('bytes', argv.bytes),
    smCount,
    seed: argv.seed,
    ...(argv.stride === undefined ? {} : { strideBytes: parseByteCount('stride', argv.stride) }),
    ...(argv.requests === undefined ? {} : { requests: argv.requests }),
  });
}

/** `gen memsim`: runs a load trace through a GPU's modeled L1/L2/DRAM path (docs/spec.md §6). */
export const memsimCommand: CommandModule<object, MemsimArgs> = {
  command: 'memsim',
  builder: (yargs: Argv) =>
    yargs
      .option('profile', {
        choices: Object.keys(GPU_MEMORY_PROFILES),
        default: 'rtx6000ada',
        describe: 'GPU memory profile',
      })
      .option('pattern', {
        choices: MEMORY_PATTERNS,
        describe:
          'stream: whole 128-byte lines in order; stride: 4-byte loads --stride apart; random: 4-byte loads at random sectors',
      })
      .option('bytes', {
        type: 'string',
        describe: 'footprint (with --pattern): bytes streamed, or the span strided/random loads cover (e.g. 64MiB)',
      })
      .option('stride', { type: 'string', describe: 'distance between strided loads (default 128)' })
      .option('requests', { type: 'number', describe: 'loads of the stride and random patterns (default: bytes / 32)' })
      .option('seed', { type: 'number', default: 1, describe: 'seed of the random pattern' })
      .option('l1-data-bytes', {
        type: 'string',
        describe: 'L1 left for data after the shared-memory carve-out (default: all of it)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' })
      .options(SYSTEM_MODEL_OPTIONS)
      .conflicts('pattern', ['kernel', 'sweep'])
      .conflicts('kernel', 'sweep') as unknown as Argv<MemsimArgs>,
  handler: (argv) => {
    if (argv.sweep) return runMemsimSweep(argv);
    if (argv.kernel !== undefined) return runMemsimKernel(argv);
    const profile = memoryProfile(argv.profile);
    const trace = buildTrace(argv, profile.sm.count);
    const l1DataBytes = argv['l1-data-bytes'];
    const result = simulateTrace(
      profile,
      trace,
      l1DataBytes === undefined ? {} : { l1DataBytes: parseByteCount('l1-data-bytes', l1DataBytes) },
    );
    process.stdout.write(argv.json ? `${JSON.stringify(result, null, 2)}\n` : formatMemoryPathResult(result));
  },
};
