/**
 * Where the in-process simulator's time goes on the MmaUnit: elaborate, code generation and a run of
 * N random coruscant MMAs at 50 % sparsity through the ts engine, driven exactly as
 * coruscant/mma/runMmas.ts drives it (harness included), with cycles/s and peak RSS.
 *
 *   npx tsx coruscant/bench/profileMma.ts [--mmas 10000] [--seed 1]
 *   node --import tsx --cpu-prof --cpu-prof-dir build/prof coruscant/bench/profileMma.ts --mmas 2000
 *   npx tsx coruscant/bench/profileMma.ts --summarize build/prof/<file>.cpuprofile
 *
 * Every result is checked against the golden model, so a fast wrong simulator fails here too.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { mmaBenchDesign, runMmasOnRtl } from '../mma/runMmas.ts';
import { Simulator, compileDesign } from '../../hw/sim/simulator.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { coruscantMma } from '../golden/models/mma.ts';
import { Random } from '../golden/pruning/random.ts';
import { numberToFp16 } from '../golden/numerics/fp16.ts';
import { zerosFp16, zerosFp32, type Fp16Matrix, type Fp32Matrix } from '../golden/matrix.ts';
import { MMA_SHAPES } from '../mma/registerImages.ts';
import { scheduleMmas, type MmaJob } from '../mma/mmaSchedule.ts';
import { mmaLatency } from '../designs/tensor/mmaUnit.ts';

const { values } = parseArgs({
  options: {
    mmas: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    summarize: { type: 'string' },
    top: { type: 'string', default: '15' },
  },
});

/** A random FP16 matrix; each element is zero with probability `sparsity`, else a value in ±[2⁻⁴, 2⁴). */
function randomFp16(random: Random, rows: number, cols: number, sparsity: number): Fp16Matrix {
  const matrix = zerosFp16(rows, cols);
  for (let index = 0; index < matrix.bits.length; index++) {
    if (random.nextUint32() / 2 ** 32 < sparsity) continue;
    const magnitude = 2 ** ((random.nextUint32() / 2 ** 32) * 8 - 4);
    matrix.bits[index] = numberToFp16(random.nextUint32() & 1 ? -magnitude : magnitude);
  }
  return matrix;
}

function randomFp32(random: Random, rows: number, cols: number): Fp32Matrix {
  const matrix = zerosFp32(rows, cols);
  for (let index = 0; index < matrix.bits.length; index++)
    matrix.bits[index] = new Uint32Array(new Float32Array([(random.nextUint32() / 2 ** 32 - 0.5) * 16]).buffer)[0]!;
  return matrix;
}

function randomJobs(count: number, seed: number): MmaJob[] {
  const random = new Random(seed);
  const { m, k, n } = MMA_SHAPES.coruscant;
  return Array.from({ length: count }, () => ({
    mode: 'coruscant' as const,
    A: randomFp16(random, m, k, 0.5),
    B: randomFp16(random, k, n, 0),
    C: randomFp32(random, m, n),
  }));
}

/** Wall and CPU seconds of one phase (CPU too, as the machine may be shared). */
interface Phase<T> {
  readonly value: T;
  readonly wall: number;
  readonly cpu: number;
}

async function timed<T>(work: () => T | Promise<T>): Promise<Phase<T>> {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  const value = await work();
  const cpu = process.cpuUsage(cpuStart);
  return { value, wall: (performance.now() - wallStart) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
}

const show = (label: string, phase: Phase<unknown>): string =>
  `${label.padEnd(11)}${phase.wall.toFixed(2)} s (cpu ${phase.cpu.toFixed(2)} s)`;

async function profile(count: number, seed: number): Promise<void> {
  const jobs = randomJobs(count, seed);
  const elaboration = await timed(() => mmaBenchDesign(0));
  // Code generation includes parsing the generated source (the first Simulator does it).
  const codegen = await timed(() => new Simulator(compileDesign(elaboration.value)));
  const schedule = await timed(() => scheduleMmas(jobs, mmaLatency(0)));
  const run = await timed(() => runMmasOnRtl(new TsEngine(), jobs));
  const { results, cycles } = run.value;
  const wrong = jobs.findIndex((job, index) => {
    const golden = coruscantMma(job.A, job.B, job.C).bits;
    return results[index]!.bits.some((bits, at) => bits !== golden[at]);
  });
  if (wrong >= 0) throw new Error(`MMA ${wrong} differs from the golden model`);
  const peakMegabytes = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    [
      `MmaBench (MmaUnit + register file), ${count} coruscant MMAs, 50 % sparsity, seed ${seed}`,
      show('elaborate', elaboration),
      show('codegen', codegen),
      `${show('run', run)} for ${cycles} cycles: ${Math.round(cycles / run.wall)} cycles/s (cpu ${Math.round(cycles / run.cpu)}), harness included`,
      `${show('  stimulus', schedule)} of that builds the stimulus (scheduleMmas, measured apart)`,
      `peak RSS   ${peakMegabytes.toFixed(0)} MB`,
      'results match the golden model\n',
    ].join('\n'),
  );
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Top self-time functions of a .cpuprofile (samples × their time deltas, summed per function; generated code as one). */
function summarize(file: string, top: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfMs = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id)!;
    const where = frame.url === '' ? '' : ` ${frame.url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}:${frame.lineNumber + 1}`;
    // The generated settle/edge chunks (no file) are one line: their sum is the simulator proper.
    const generated = frame.url === '' && /^(settle|edge)\d*$/.test(frame.functionName);
    const key = generated ? '(generated settle/edge code)' : `${frame.functionName || '(anonymous)'}${where}`;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
    total += ms;
  });
  const rows = [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, top);
  process.stdout.write(`total ${(total / 1000).toFixed(2)} s sampled\n`);
  for (const [key, ms] of rows)
    process.stdout.write(`${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${key}\n`);
}

if (values.summarize !== undefined) summarize(values.summarize, Number(values.top));
else await profile(Number(values.mmas), Number(values.seed));
