import type { CommandModule } from 'yargs';
import { refuseOutputsOverInputs, UserError } from '../../api/plugin.ts';
import { coruscantMma, denseMma } from '../golden/models/mma.ts';
import { createEngine, ENGINE_NAMES, engineHelp } from '../../api/engines.ts';
import type { EngineName } from '../../api/engines.ts';
import { writeNpy } from '../golden/io/npy.ts';
import { readMmaBatch, type MmaBatch } from '../mma/batchOperands.ts';
import { MMA_SHAPES, type MmaMode } from '../mma/registerImages.ts';
import { DATAPATH_CYCLES } from '../mma/mmaSchedule.ts';
import { runMmasOnRtl } from '../mma/runMmas.ts';
import { mmaLatency } from '../designs/tensor/mmaUnit.ts';
import type { Fp32Matrix } from '../golden/matrix.ts';

const GOLDEN = { dense: denseMma, coruscant: coruscantMma } satisfies Record<MmaMode, unknown>;
const MODES = Object.keys(GOLDEN) as MmaMode[];
type MmaEngineName = 'golden' | EngineName;

interface MmaArgs {
  mode: MmaMode;
  a: unknown;
  b: unknown;
  c?: unknown;
  out: unknown;
  engine: MmaEngineName;
  vcd?: unknown;
}

/** D of every MMA, and the cycles from the first start to the last write-back (RTL engines). */
interface MmaOutcome {
  readonly D: Fp32Matrix[];
  readonly cycles: number;
  readonly measured: boolean;
}

/** A file option's value; yargs turns a repeated option into an array and a bare one into ''. */
function fileOption(option: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new UserError(`give --${option} exactly once, with a file name`);
  return value;
}

async function compute(
  mode: MmaMode,
  batch: MmaBatch,
  engine: MmaEngineName,
  vcd: string | undefined,
): Promise<MmaOutcome> {
  if (engine === 'golden') {
    if (vcd !== undefined) throw new UserError('--vcd needs an RTL engine (ts, verilator or icarus)');
    // The hardware's figure for back-to-back MMAs: one every 16 cycles, plus the pipeline latency.
    return {
      D: batch.A.map((A, i) => GOLDEN[mode](A, batch.B[i]!, batch.C[i]!)),
      cycles: DATAPATH_CYCLES * batch.count + mmaLatency(0),
      measured: false,
    };
  }
  const jobs = batch.A.map((A, i) => ({ mode, A, B: batch.B[i]!, C: batch.C[i]! }));
  const run = await runMmasOnRtl(await createEngine(engine), jobs, vcd === undefined ? {} : { vcd });
  const lastWriteback = Math.max(...run.startToLastWriteback.map((span, i) => run.starts[i]! + (span ?? 0)));
  return { D: run.results.map((D) => D!), cycles: lastWriteback - run.starts[0]!, measured: true };
}

export const mmaCommand: CommandModule<object, MmaArgs> = {
  command: 'mma',
  builder: (yargs) =>
    yargs
      .option('mode', {
        choices: MODES,
        demandOption: true,
        describe:
          'dense: A 16×16, B 16×8, C 16×8; coruscant: A 32×64 (zeros = pruned, sent in STC format), B 64×1, C 32×1',
      })
      .option('a', {
        type: 'string',
        demandOption: true,
        describe: 'A: float16 .npy, m×k or T×m×k for a batch of T MMAs',
      })
      .option('b', {
        type: 'string',
        demandOption: true,
        describe: 'B: float16 .npy, k×n (shared by every MMA) or T×k×n',
      })
      .option('c', { type: 'string', describe: 'C: float32 .npy, m×n (shared) or T×m×n (default +0)' })
      .option('out', {
        type: 'string',
        demandOption: true,
        describe: 'D: float32 .npy, m×n (or T×m×n when A is 3-D), written atomically',
      })
      .option('engine', {
        choices: ['golden', ...ENGINE_NAMES] as MmaEngineName[],
        default: 'ts' as MmaEngineName,
        describe: `golden model, or the RTL on an engine: ${engineHelp()}`,
      })
      .option('vcd', {
        type: 'string',
        describe: 'write a VCD waveform of the RTL run here',
      }),
  handler: async (argv) => {
    const out = fileOption('out', argv.out);
    const files = {
      a: fileOption('a', argv.a),
      b: fileOption('b', argv.b),
      ...(argv.c === undefined ? {} : { c: fileOption('c', argv.c) }),
    };
    const vcd = argv.vcd === undefined ? undefined : fileOption('vcd', argv.vcd);
    refuseOutputsOverInputs({ '--a': files.a, '--b': files.b, '--c': files.c }, { '--out': out, '--vcd': vcd });
    const batch = readMmaBatch(argv.mode, files);
    const outcome = await compute(argv.mode, batch, argv.engine, vcd);
    const { m, n } = MMA_SHAPES[argv.mode];
    const data = new Uint32Array(batch.count * m * n);
    outcome.D.forEach((D, i) => data.set(D.bits, i * m * n));
    writeNpy(out, 'float32', batch.batched ? [batch.count, m, n] : [m, n], new Float32Array(data.buffer));
    const source = outcome.measured
      ? `measured on ${argv.engine}, first start to last write-back`
      : 'the hardware model: 16 per MMA back to back + latency';
    process.stdout.write(
      `MMAs: ${batch.count}\ncycles: ${outcome.cycles} (${source})\ncycles per MMA: ${(outcome.cycles / batch.count).toFixed(2)}\nwrote ${out}\n`,
    );
  },
};
