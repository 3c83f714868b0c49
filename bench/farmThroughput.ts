/**
 * Regression farm throughput on this machine: one suite, seed and case count run locally (the
 * baseline: `gen regress --jobs 1` and `--jobs 2`) and on a BullMQ farm of a private redis-server
 * with one and with two `gen worker` processes, side by side in one run. Prints cases/s and
 * case-cycles/s (wall) and cases per CPU second (all processes of the run: steadier than wall time
 * on a shared machine), and writes them as JSON. Skips with one line where redis-server is missing.
 * Run: `npx tsx bench/farmThroughput.ts [--runs N] [--suite NAME] [--json FILE]`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa, type ResultPromise } from 'execa';
import { writeFileAtomic } from '../common/atomicWrite.ts';
import { caseSeed } from '../verif/regress/cases.ts';
import { drawCase } from '../verif/regress/runCases.ts';
import { REGRESS_SUITES } from '../tests/support/regressSuites.ts';
import { GEN, regressArgs } from '../tests/support/regressRun.ts';
import { HAS_REDIS, startRedis } from '../tests/support/redisServer.ts';
import { measureProcess } from './measureProcess.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '40000' },
    suite: { type: 'string', default: 'LaneDetector' },
    seed: { type: 'string', default: '1' },
    json: { type: 'string', default: 'build/bench/farm-throughput.json' },
  },
});
const runs = Number(values.runs);
const seed = Number(values.seed);
const suite = REGRESS_SUITES.find((known) => known.name === values.suite);
if (!suite) throw new Error(`no built-in suite ${values.suite}`);
if (!HAS_REDIS) {
  console.log('farm throughput: skipped (redis-server is not installed; scripts/setup.sh installs it)');
  process.exit(0);
}

/** One configuration's figures. */
interface Throughput {
  readonly setup: string;
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  readonly casesPerSecond: number;
  readonly caseCyclesPerSecond: number;
  readonly casesPerCpuSecond: number;
}

/** Clock ticks per second of /proc/PID/stat's times (USER_HZ: 100 on every Linux Node supports). */
const USER_HZ = 100;

/** User plus system CPU seconds a live process has used, its threads included. */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const [utime, stime] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 13)
    .map(Number);
  return (utime! + stime!) / USER_HZ;
}

// The cycles the run simulates: the sum of its cases' stimulus lengths, drawn as the run draws them.
let cycles = 0;
for (let k = 0; k < runs; k++) cycles += suite.vectors(drawCase(suite, caseSeed(seed, k))).stimulus.length;

const scratch = mkdtempSync(join(tmpdir(), 'gen-farm-bench-'));
const started: ResultPromise[] = [];
const env = { CI: '1' };
const args = regressArgs({ suites: [suite.name], runs, seed });

/** The figures of a run that took `wallSeconds` and `cpuSeconds` in all. */
const throughput = (setup: string, wallSeconds: number, cpuSeconds: number): Throughput => ({
  setup,
  wallSeconds,
  cpuSeconds,
  casesPerSecond: runs / wallSeconds,
  caseCyclesPerSecond: cycles / wallSeconds,
  casesPerCpuSecond: runs / cpuSeconds,
});

/** The run on this machine alone, with `jobs` worker threads. */
async function local(jobs: number): Promise<Throughput> {
  const run = await measureProcess(process.execPath, [GEN, ...args, '--jobs', String(jobs)], { env });
  return throughput(`local, --jobs ${jobs}`, run.seconds, run.cpuSeconds);
}

/** The run on a farm of `workers` idle `gen worker` processes (started before the clock starts). */
async function farm(url: string, workers: number): Promise<Throughput> {
  const children = Array.from({ length: workers }, () => {
    const child = execa(process.execPath, [GEN, 'worker', '--farm', url], { reject: false, env });
    started.push(child);
    return child;
  });
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) =>
          child.stderr!.on('data', (chunk: Buffer) => {
            if (/taking shards from/.test(chunk.toString())) resolve();
          }),
        ),
    ),
  );
  const workerCpuBefore = children.map((child) => cpuSecondsOf(child.pid!));
  const run = await measureProcess(process.execPath, [GEN, ...args, '--farm', url], { env });
  const workerCpu = children.reduce((sum, child, i) => sum + cpuSecondsOf(child.pid!) - workerCpuBefore[i]!, 0);
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children);
  return throughput(`farm, ${workers} worker${workers === 1 ? '' : 's'}`, run.seconds, run.cpuSeconds + workerCpu);
}

try {
  const redis = await startRedis(scratch);
  started.push(redis.server);
  const results = [await local(1), await local(2), await farm(redis.url, 1), await farm(redis.url, 2)];
  const baseline = results[0]!;
  console.log(
    `${suite.name}, ts engine, ${runs} cases (${cycles} cycles), seed ${seed}; workers and Redis on this machine`,
  );
  console.log('setup               wall s   CPU s   cases/s  case-cycles/s  cases/CPU s  vs local --jobs 1');
  for (const result of results)
    console.log(
      [
        result.setup.padEnd(18),
        result.wallSeconds.toFixed(1).padStart(7),
        result.cpuSeconds.toFixed(1).padStart(7),
        result.casesPerSecond.toFixed(0).padStart(9),
        result.caseCyclesPerSecond.toFixed(0).padStart(14),
        result.casesPerCpuSecond.toFixed(0).padStart(12),
        `${(result.casesPerSecond / baseline.casesPerSecond).toFixed(2)}x`.padStart(18),
      ].join(' '),
    );
  mkdirSync(dirname(values.json), { recursive: true });
  writeFileAtomic(
    values.json,
    `${JSON.stringify({ suite: suite.name, engine: 'ts', runs, cycles, seed, results }, null, 2)}\n`,
  );
  console.log(`JSON: ${values.json}`);
} finally {
  for (const child of started) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
}
