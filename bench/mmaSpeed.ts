/**
 * Throughput of the three engines on the Coruscant MmaUnit: a seeded stream of random coruscant
 * MMAs (m32n1k64, A at exactly 50 % sparsity) through the MmaBench (the unit plus the operand
 * register file), no tracing, every D checked against the golden model. Then the same cycles/s
 * on the BitmapDecoder and on a batch of random fuzz designs, each against its golden vectors.
 *
 *   npx tsx bench/mmaSpeed.ts [--mmas 10000] [--ts-mmas N] [--icarus-mmas 50] [--batch 500]
 *                             [--decoder-streams 400] [--fuzz-streams 4000] [--seed 1]
 *                             [--engines ts,verilator,icarus]
 *
 * Every (workload, engine) runs in a child process of its own, so its peak memory is its own,
 * and is timed with its harness included: scheduling, stimulus text, the simulator, parsing.
 * The warm-up (elaboration, the in-process code generation, the Verilator -O3 build the tests
 * also use, the Icarus compile; builds cached by content) and the golden check are untimed.
 * An engine given a shorter prefix (Icarus: --icarus-mmas MMAs; it runs the MmaBench at a few cycles per second)
 * has its rate extrapolated, and the table says so. --xxx 0 skips a workload. Last, the
 * Verilator binary alone on one batch's stimulus file: the rest of its time is the harness.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { elaborate } from '../hw/ir/elaborate.ts';
import { compileDesign } from '../hw/sim/simulator.ts';
import { MmaUnit } from '../hw/designs/tensor/mmaUnit.ts';
import { createEngine, ENGINE_NAMES } from '../engines/index.ts';
import type { EngineName } from '../engines/engine.ts';
import { emitVerilog } from '../hw/verilog/emit.ts';
import { mmaLatency } from '../hw/designs/tensor/mmaUnit.ts';
import { scheduleMmas } from '../verif/mma/mmaSchedule.ts';
import { mmaBenchDesign } from '../verif/mma/runMmas.ts';
import { runVerilator } from '../tools/verilator.ts';
import { buildVerilatorHarness } from '../engines/verilatorEngine.ts';
import { formatStimulus, harnessPortsOf } from '../engines/harnessStimulus.ts';
import { measureProcess, type ProcessMeasure } from './measureProcess.ts';
import { randomCoruscantMmas } from './mmaStream.ts';
import { MMA_SPARSITY, workloads } from './speedWorkloads.ts';

const { values } = parseArgs({
  options: {
    mmas: { type: 'string', default: '10000' },
    'ts-mmas': { type: 'string' },
    'icarus-mmas': { type: 'string', default: '50' },
    batch: { type: 'string', default: '500' },
    'decoder-streams': { type: 'string', default: '400' },
    'fuzz-streams': { type: 'string', default: '4000' },
    seed: { type: 'string', default: '1' },
    engines: { type: 'string', default: ENGINE_NAMES.join(',') },
    child: { type: 'string' },
    workload: { type: 'string' },
    count: { type: 'string' },
  },
});

const ENGINES: readonly EngineName[] = ENGINE_NAMES;
/** Icarus runs this share of the decoder and fuzz streams (it is two orders slower). */
const ICARUS_SHARE = 0.1;

const seconds = (since: number): number => (performance.now() - since) / 1000;

/** What a child prints: the timed run, the warm-up, and how many results differ from golden. */
interface ChildReport {
  readonly count: number;
  readonly cycles: number;
  readonly runSeconds: number;
  readonly warmUpSeconds: number;
  readonly mismatches: number;
}

/** One workload on one engine, in this (child) process. */
async function runChild(engineName: EngineName, workloadName: string, count: number, seed: number): Promise<void> {
  const workload = workloads(Number(values.batch))[workloadName];
  if (!workload) throw new Error(`unknown workload '${workloadName}'`);
  const prepared = workload.prepare(count, seed);
  const engine = await createEngine(engineName);
  let started = performance.now();
  await prepared.warmUp(engine);
  const warmUpSeconds = seconds(started);
  started = performance.now();
  const run = await prepared.run(engine);
  const runSeconds = seconds(started);
  const report: ChildReport = { count, cycles: run.cycles, runSeconds, warmUpSeconds, mismatches: run.mismatches() };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/** The in-process simulator's compile of the MmaUnit alone: elaboration, then code generation. */
function compileChild(): void {
  let started = performance.now();
  const design = elaborate(MmaUnit);
  const elaborateSeconds = seconds(started);
  started = performance.now();
  compileDesign(design);
  process.stdout.write(`${JSON.stringify({ elaborateSeconds, codegenSeconds: seconds(started) })}\n`);
}

/**
 * The Verilator binary alone on the stimulus file of the stream's first batch: what the harness's
 * TypeScript side (scheduling, stimulus text, parsing) costs is the difference from the table.
 */
async function verilatorAloneChild(seed: number): Promise<void> {
  const design = mmaBenchDesign();
  const ports = harnessPortsOf(design);
  const schedule = scheduleMmas(
    randomCoruscantMmas(Math.min(Number(values.batch), Number(values.mmas)), seed, MMA_SPARSITY),
    mmaLatency(0),
  );
  const stimulus = formatStimulus(ports, [schedule.inputs]);
  const build = await buildVerilatorHarness(emitVerilog(design), ports);
  const started = performance.now();
  await runVerilator(build, stimulus);
  process.stdout.write(`${JSON.stringify({ cycles: schedule.inputs.length, seconds: seconds(started) })}\n`);
}

interface Row {
  readonly engine: EngineName;
  readonly report: ChildReport;
  readonly process: ProcessMeasure;
}

/**
 * Every engine's process of the MMA stream runs with this V8 old-space limit. Without one V8 grows
 * the heap towards its default limit (GBs on this machine) before collecting, so peak RSS measured
 * the collector's slack (10^4 MMAs: 659 MB uncapped, 379 MB capped, and faster), not what the run
 * needs. The stream workloads hold all their streams' golden vectors at once and run uncapped.
 */
const MMA_HARNESS_HEAP_MB = 384;

const format = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const cyclesPerSecond = (row: Row): number => row.report.cycles / row.report.runSeconds;
const lastLine = (measure: ProcessMeasure): string => measure.stdout.trim().split('\n').pop()!;

async function main(): Promise<void> {
  const seed = Number(values.seed);
  if (values.child === 'compile') return compileChild();
  if (values.child === 'verilator-alone') return verilatorAloneChild(seed);
  if (values.child !== undefined)
    return runChild(values.child as EngineName, values.workload!, Number(values.count), seed);

  const engines = values.engines.split(',') as EngineName[];
  const unknown = engines.filter((engine) => !ENGINES.includes(engine));
  if (unknown.length > 0) throw new Error(`unknown engine ${unknown.join(', ')} (known: ${ENGINES.join(', ')})`);
  const self = fileURLToPath(import.meta.url);
  const child = (args: readonly string[], heapMegabytes?: number): Promise<ProcessMeasure> =>
    measureProcess(process.execPath, [
      ...(heapMegabytes === undefined ? [] : [`--max-old-space-size=${heapMegabytes}`]),
      '--import',
      'tsx',
      self,
      '--seed',
      String(seed),
      '--batch',
      String(values.batch),
      ...args,
    ]);

  const mmas = Number(values.mmas);
  const streams = (total: number): Record<EngineName, number> => ({
    ts: total,
    verilator: total,
    icarus: Math.max(1, Math.round(total * ICARUS_SHARE)),
  });
  const plan: readonly {
    workload: string;
    total: number;
    counts: Record<EngineName, number>;
    heapMegabytes?: number;
  }[] = [
    {
      workload: 'mma',
      total: mmas,
      counts: { ts: Number(values['ts-mmas'] ?? mmas), verilator: mmas, icarus: Number(values['icarus-mmas']) },
      heapMegabytes: MMA_HARNESS_HEAP_MB,
    },
    {
      workload: 'decoder',
      total: Number(values['decoder-streams']),
      counts: streams(Number(values['decoder-streams'])),
    },
    { workload: 'fuzz', total: Number(values['fuzz-streams']), counts: streams(Number(values['fuzz-streams'])) },
  ];

  const compileMeasure = await child(['--child', 'compile']);
  const compile = JSON.parse(lastLine(compileMeasure)) as { elaborateSeconds: number; codegenSeconds: number };
  console.log(
    `In-process compile of MmaUnit alone: elaborate ${format(compile.elaborateSeconds, 1)} s + codegen ${format(compile.codegenSeconds, 1)} s, peak ${format(compileMeasure.peakMegabytes)} MB.`,
  );

  let failed = false;
  for (const { workload, total, counts, heapMegabytes } of plan) {
    if (total === 0) continue;
    const rows: Row[] = [];
    for (const engine of engines) {
      const measure = await child(
        ['--child', engine, '--workload', workload, '--count', String(counts[engine])],
        heapMegabytes,
      );
      rows.push({ engine, report: JSON.parse(lastLine(measure)) as ChildReport, process: measure });
    }
    const { unit, description } = workloads(Number(values.batch))[workload]!;
    const ts = rows.find((row) => row.engine === 'ts');
    console.log(
      `\n${description}; ${format(total)} ${unit}, seed ${seed}, no tracing, results checked against golden.`,
    );
    console.log(
      `| engine | ${unit} | cycles | wall s | ${unit}/s | cycles/s | ts ÷ engine | warm-up s | peak MB | = golden |`,
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const row of rows) {
      const { report } = row;
      const prefix = report.count < total ? ` (first ${format(report.count)}, rate extrapolated)` : '';
      const ratio = ts ? `${format(cyclesPerSecond(ts) / cyclesPerSecond(row), 2)}×` : '—';
      const equal = report.mismatches === 0 ? 'yes' : `NO (${report.mismatches})`;
      failed ||= report.mismatches !== 0;
      console.log(
        `| ${row.engine}${prefix} | ${format(report.count)} | ${format(report.cycles)} | ${format(report.runSeconds, 1)} | ${format(report.count / report.runSeconds, 1)} | ${format(cyclesPerSecond(row))} | ${ratio} | ${format(report.warmUpSeconds, 1)} | ${format(row.process.peakMegabytes)} | ${equal} |`,
      );
    }
  }
  if (engines.includes('verilator') && mmas > 0) {
    const alone = JSON.parse(lastLine(await child(['--child', 'verilator-alone', '--mmas', String(mmas)]))) as {
      cycles: number;
      seconds: number;
    };
    console.log(
      `\nThe Verilator binary alone on one batch's stimulus file (${format(alone.cycles)} cycles, file written and read back): ${format(alone.cycles / alone.seconds)} cycles/s.`,
    );
  }
  console.log(
    '\nwall s: the timed run, harness included; warm-up s: the untimed first unit (elaboration, in-process codegen or the Verilator/Icarus build: quick when cached); peak MB: the child process and the simulator it runs.',
  );
  if (failed) process.exitCode = 1;
}

await main();
