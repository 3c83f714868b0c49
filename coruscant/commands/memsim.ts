import { integerOption } from '../../api/plugin.ts';
import type { Argv, CommandModule } from 'yargs';
import { UserError } from '../../api/plugin.ts';
import { formatMemoryPathResult } from '../../gpu/memory/formatResult.ts';
import { GPU_MEMORY_PROFILES, memoryProfile } from '../../gpu/memory/profiles.ts';
import {
  LOOP_PATTERNS,
  runLoop,
  STREAM_MAPPINGS,
  type LoopOptions,
  type LoopPattern,
  type LoopResult,
  type StreamMapping,
} from '../../gpu/memory/warpLoop.ts';
import { runMemsimKernel, runMemsimSweep, SYSTEM_MODEL_OPTIONS, type SystemModelArgs } from './gpuModelOptions.ts';

interface MemsimArgs extends SystemModelArgs {
  profile: string;
  pattern?: LoopPattern;
  bytes?: string;
  stride?: string;
  requests?: number;
  'warps-per-sm': number;
  'threads-per-block'?: number;
  'in-flight': number;
  'total-bytes'?: string;
  mapping?: StreamMapping;
  'loads-per-thread'?: number;
  warm: boolean;
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

/** The closed-loop run a `--pattern` asks for (gpu/memory/warpLoop.ts). */
function loopOptions(argv: MemsimArgs): LoopOptions {
  if (argv.requests !== undefined && !(Number.isSafeInteger(argv.requests) && argv.requests > 0)) {
    throw new UserError(`--requests ${argv.requests}: give a positive whole number`);
  }
  if (argv.pattern === undefined) throw new UserError('give --pattern, --kernel or --sweep');
  if (argv.bytes === undefined) throw new UserError(`--pattern ${argv.pattern} needs --bytes (e.g. 64MiB)`);
  const l1DataBytes = argv['l1-data-bytes'];
  return {
    pattern: argv.pattern,
    bytes: parseByteCount('bytes', argv.bytes),
    warpsPerSm: argv['warps-per-sm'],
    ...(argv['threads-per-block'] === undefined ? {} : { threadsPerBlock: argv['threads-per-block'] }),
    inFlight: argv['in-flight'],
    warm: argv.warm,
    seed: argv.seed,
    ...(argv.stride === undefined ? {} : { strideBytes: parseByteCount('stride', argv.stride) }),
    ...(argv.requests === undefined ? {} : { loads: argv.requests }),
    ...(argv['total-bytes'] === undefined ? {} : { totalBytes: parseByteCount('total-bytes', argv['total-bytes']) }),
    ...(argv.mapping === undefined ? {} : { mapping: argv.mapping }),
    ...(argv['loads-per-thread'] === undefined ? {} : { loadsPerThread: argv['loads-per-thread'] }),
    ...(l1DataBytes === undefined ? {} : { l1DataBytes: parseByteCount('l1-data-bytes', l1DataBytes) }),
  };
}

/** A closed-loop result as text: what was timed, then the path model's report. */
function formatLoop(result: LoopResult): string {
  const lines = [
    `pattern            ${result.pattern}: ${result.warpsPerSm} warps per SM${result.pattern === 'chase' ? '' : ` in blocks of ${result.threadsPerBlock} threads`}, ${result.inFlight} loads in flight per thread (${result.bytesInFlightPerSm} B per SM)`,
    `timed              ${(result.timeNs / 1000).toFixed(2)} µs, ${result.loads} loads, ${(result.bytes / 2 ** 20).toFixed(2)} MiB to the SMs`,
    `bandwidth          ${result.GBps.toFixed(1)} GB/s (${result.gLoadsPerSecond.toFixed(2)} G loads/s)`,
    ...(result.warpEnds === undefined
      ? []
      : [
          `warp ends          median ${(result.warpEnds.medianNs / 1000).toFixed(2)} µs; 5th percentile ${result.warpEnds.fifthPercentile.toFixed(3)}, last ${result.warpEnds.last.toFixed(3)} of it`,
        ]),
    ...(result.nsPerLoad === undefined
      ? []
      : [
          `per dependent load ${result.nsPerLoad.toFixed(1)} ns = ${((result.nsPerLoad * result.path.makespanCycles) / result.path.makespanNs).toFixed(1)} SM cycles`,
        ]),
  ];
  return `${lines.join('\n')}\n${formatMemoryPathResult(result.path)}`;
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
        choices: LOOP_PATTERNS,
        describe:
          'stream: 16-byte loads, grid-stride; stride: 4-byte loads, neighbouring threads --stride apart; random: 4-byte loads at random sectors; ' +
          "chase: one thread walking a random cycle of the footprint's lines (dependent loads). Every warp keeps --in-flight loads per thread out, then waits for them",
      })
      .option('warps-per-sm', { type: 'number', default: 64, describe: 'with --pattern: warps on every SM' })
      .option('threads-per-block', {
        type: 'number',
        describe:
          "with --pattern stream|stride|random: threads per block, the grid's blocks dealt to the SMs in turn (default 256 where its 8 warps divide --warps-per-sm, else as few blocks an SM as fit 1,024 threads each)",
      })
      .option('in-flight', {
        type: 'number',
        default: 4,
        describe: 'with --pattern: independent loads each thread has in flight per step',
      })
      .option('total-bytes', {
        type: 'string',
        describe: 'with --pattern stream: bytes read in all, the footprint repeated (default: once)',
      })
      .option('mapping', {
        choices: STREAM_MAPPINGS,
        describe:
          'with --pattern stream: rotating (one grid-stride walk over --total-bytes, index mod footprint; default) or fixed (every pass the same walk)',
      })
      .option('loads-per-thread', {
        type: 'number',
        describe: 'with --pattern stride|random: loads per thread (default 64)',
      })
      .option('warm', {
        type: 'boolean',
        default: false,
        describe: 'with --pattern: read the footprint once, untimed, before timing (a warm walk)',
      })
      .option('bytes', {
        type: 'string',
        describe: 'footprint (with --pattern): bytes streamed, or the span strided/random loads cover (e.g. 64MiB)',
      })
      .option('stride', { type: 'string', describe: 'distance between strided loads (default 128)' })
      .option('requests', {
        type: 'string',
        coerce: (text: unknown) => integerOption('requests', text, { min: 1 }),
        describe: 'with --pattern chase: loads timed (default: one walk, at most 20 000)',
      })
      .option('seed', {
        type: 'string',
        coerce: (text: unknown) => integerOption('seed', text),
        default: 1,
        describe: 'seed of the random pattern',
      })
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
    const result = runLoop(memoryProfile(argv.profile), loopOptions(argv));
    process.stdout.write(argv.json ? `${JSON.stringify(result, null, 2)}\n` : formatLoop(result));
  },
};
