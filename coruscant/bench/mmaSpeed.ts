/**
 * Throughput of the engines on the Coruscant designs: a seeded stream of random coruscant MMAs
 * (m32n1k64, A at exactly 50 % sparsity) through the MmaBench (the MmaUnit plus the operand
 * register file), no tracing, every D checked against the golden model; then the same cycles/s
 * on the BitmapDecoder suite, on a batch of random fuzz designs (each against its golden
 * vectors) and on BenchPipeline.
 *
 *   npx tsx coruscant/bench/mmaSpeed.ts [--quick] [--json] [--mmas 10000] [--ts-mmas N] [--icarus-mmas 50]
 *                             [--batch 500] [--decoder-streams 400] [--fuzz-streams 4000]
 *                             [--pipeline-kcycles 2000] [--seed 1]
 *                             [--engines ts,ts-lanes,verilator,verilator-native,icarus,verilator-outputs]
 *                             [--expect digest|frames] [--repeat 1]
 *
 * Engines: `ts` (the in-process simulator behind the engine interface, as a regression gets it:
 * one stream after another), `ts-lanes` (the same with TS_LANES streams in lanes of one model),
 * `verilator` and `icarus`
 * (our engines: the model behind our harness process, its transport included) and
 * `verilator-native`: the same Verilator model driven by a C++ loop over stimulus preloaded in
 * memory, its outputs checksummed in C++ (bench/nativeHarness.ts), as a Verilator user's own
 * harness runs it. That is Verilator's real speed, and the ratios against it are the honest ones.
 * `ts` and `icarus` rows: the time inside the engine's calls (run / runMany: input frames in,
 * output frames out — the engines' typed fast path, hw/contract/portFrames.ts) plus folding their
 * outputs into the checksum, as verilator-native folds inside its loop. The `verilator` row runs
 * the same calls through Engine.compare, the way a regression with known outputs runs them: each
 * stream with the outputs the ts engine gave for it as expected — their digests (`--expect
 * digest`, the default; the harness folds the same FNV-1a checksum verilator-native folds) or the
 * frames themselves (`--expect frames`; the harness compares every word) — prepared untimed, as
 * verilator-native's stimulus is preloaded; timed: each compare call whole (its checks, the
 * commands and expected frames written, the harness — a process kept running from the warm-up on,
 * as a regression's later batches find it — and its verdicts read). Every verdict must be equal,
 * or the run fails. `verilator-outputs` (only when named in --engines) is the verilator engine
 * moving every output frame out, timed as the ts row. The workload's own stimulus building (the
 * MMA scheduler and its conversion to frames) counts for no engine, as the preloading does not for
 * verilator-native; --json also gives the whole timed run as `workloadSeconds`.
 * Every engine's outputs fold into the same checksum; a run whose checksum differs from the ts
 * engine's on the same work fails the benchmark, as does any result that differs from golden.
 *
 * Every (workload, engine) runs in a child process of its own, so its peak memory is its own.
 * The warm-up (elaboration, the in-process code generation, the Verilator -O3 build the tests
 * also use, the Icarus compile; builds cached by content; then the first unit again and again
 * for 2 s, which takes the in-process code to V8's optimizing tier) and the golden check are untimed.
 * An engine given a shorter prefix (Icarus: --icarus-mmas MMAs, a tenth of the streams) has its
 * rate extrapolated, and the table says so. --xxx 0 skips a workload. --quick runs small counts
 * (a CI smoke run, ~a minute with warm caches); --json prints one JSON object instead of the
 * tables: `workloads.<workload>.<engine>.cyclesPerSecond`, the compile of MmaUnit and the load.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { compileDesign } from '../../hw/sim/simulator.ts';
import { MmaUnit } from '../designs/tensor/mmaUnit.ts';
import { loadavg } from 'node:os';
import { createEngine } from '../../engines/index.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import type { EngineName } from '../../hw/contract/engine.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';
import { measureProcess, type ProcessMeasure } from '../../bench/measureProcess.ts';
import { ChecksumEngine, RecordingEngine, workloads } from './speedWorkloads.ts';
import { outputDigest } from '../../engines/outputCompare.ts';
import type { ExpectedOutputs } from '../../hw/contract/engine.ts';
import { binaryStimulus, buildNativeHarness, runNativeHarness } from '../../bench/nativeHarness.ts';

/**
 * The benchmark's engines: the project's three, Verilator under a native C++ loop, and (not run
 * unless named) `verilator-outputs`, our Verilator engine with every output frame moved out.
 */
type BenchEngine = EngineName | 'ts-lanes' | 'verilator-native' | 'verilator-outputs';
const ENGINES: readonly BenchEngine[] = [
  'ts',
  'ts-lanes',
  'verilator',
  'verilator-native',
  'icarus',
  'verilator-outputs',
];
const DEFAULT_ENGINES: readonly BenchEngine[] = ['ts', 'ts-lanes', 'verilator', 'verilator-native', 'icarus'];
/** Lanes of the `ts-lanes` row (hw/sim/laneSimulator.ts). */
const TS_LANES = 16;

const { values: given } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    mmas: { type: 'string' },
    'ts-mmas': { type: 'string' },
    'icarus-mmas': { type: 'string' },
    batch: { type: 'string' },
    'decoder-streams': { type: 'string' },
    'fuzz-streams': { type: 'string' },
    'pipeline-kcycles': { type: 'string' },
    seed: { type: 'string', default: '1' },
    repeat: { type: 'string', default: '1' },
    engines: { type: 'string', default: DEFAULT_ENGINES.join(',') },
    expect: { type: 'string', default: 'digest' },
    child: { type: 'string' },
    workload: { type: 'string' },
    count: { type: 'string' },
  },
});

/** Counts of a full run, and of --quick. */
const COUNTS = {
  full: {
    mmas: 10000,
    'icarus-mmas': 50,
    batch: 500,
    'decoder-streams': 400,
    'fuzz-streams': 4000,
    'pipeline-kcycles': 2000,
  },
  quick: { mmas: 40, 'icarus-mmas': 4, batch: 20, 'decoder-streams': 40, 'fuzz-streams': 200, 'pipeline-kcycles': 100 },
} as const;
const defaults = COUNTS[given.quick ? 'quick' : 'full'];
const values = {
  ...given,
  ...Object.fromEntries(
    Object.entries(defaults).map(([name, count]) => [name, given[name as keyof typeof defaults] ?? String(count)]),
  ),
} as typeof given & Record<keyof typeof defaults, string>;
/**
 * Every engine's warm-up runs the workload's first unit again and again for at least this long
 * (untimed). V8 takes the MmaBench's 1.8 MB of generated code to its optimizing tier only after
 * about 5,000 cycles, 4.5 s on this machine (500 → 30,000 cycles/s), so a full run warms up
 * 5 s; --quick, 2 s, leaves the in-process MMA rate cold on purpose (a CI smoke run).
 */
const WARM_UP_SECONDS = given.quick ? 2 : 5;
/** Icarus runs this share of the decoder and fuzz streams (it is two orders slower). */
const ICARUS_SHARE = 0.1;

const seconds = (since: number): number => (performance.now() - since) / 1000;

/** What a child prints: the timed run, the warm-up, results that differ from golden, the output checksum. */
interface ChildReport {
  readonly count: number;
  readonly cycles: number;
  /** Inside the engine's calls (verilator-native: its C++ loop): what the rates are of. */
  readonly runSeconds: number;
  /**
   * CPU seconds of the same span, where the engine runs in this process (ts: all its threads, V8's
   * compiler and collector included) or times itself (verilator-native: std::clock); null for an
   * engine behind a harness process, whose CPU time is not in this one's.
   */
  readonly runCpuSeconds: number | null;
  /** The whole timed run, the workload's own stimulus building and golden checks included. */
  readonly workloadSeconds: number;
  readonly warmUpSeconds: number;
  readonly mismatches: number;
  /** False when nothing but the checksum checks the run (no golden model, or the native harness). */
  readonly golden: boolean;
  readonly checksum: string;
}

/** One workload on one engine, in this (child) process. */
async function runChild(engineName: BenchEngine, workloadName: string, count: number, seed: number): Promise<void> {
  const workload = workloads(Number(values.batch))[workloadName];
  if (!workload) throw new Error(`unknown workload '${workloadName}'`);
  const prepared = workload.prepare(count, seed);
  let report: ChildReport;
  if (engineName === 'verilator-native') {
    const started = performance.now();
    const { design, streams } = prepared.streams();
    const ports = harnessPortsOf(design);
    const build = await buildNativeHarness(emitVerilog(design), ports);
    const stimulus = binaryStimulus(ports, streams);
    const warmUpSeconds = seconds(started);
    const run = await runNativeHarness(build, stimulus);
    report = {
      count,
      cycles: run.cycles,
      runSeconds: run.seconds,
      runCpuSeconds: run.cpuSeconds,
      workloadSeconds: run.seconds,
      warmUpSeconds,
      mismatches: 0,
      golden: false,
      checksum: run.checksum,
    };
  } else if (engineName === 'verilator') {
    report = await compareChild(prepared, count);
  } else {
    const engine =
      engineName === 'ts-lanes'
        ? new TsEngine({ lanes: TS_LANES })
        : await createEngine(engineName === 'verilator-outputs' ? 'verilator' : engineName);
    let started = performance.now();
    // The in-process simulator's code reaches V8's optimizing tier only after thousands of cycles:
    // the warm-up repeats its unit for WARM_UP_SECONDS (as a regression's first seconds would).
    do await prepared.warmUp(engine);
    while (seconds(started) < WARM_UP_SECONDS);
    const warmUpSeconds = seconds(started);
    const checked = new ChecksumEngine(engine);
    started = performance.now();
    const run = await prepared.run(checked);
    const workloadSeconds = seconds(started);
    const runSeconds = checked.engineSeconds;
    report = {
      count,
      cycles: run.cycles,
      runSeconds,
      runCpuSeconds: engine.name === 'ts' ? checked.engineCpuSeconds : null,
      workloadSeconds,
      warmUpSeconds,
      mismatches: run.mismatches(),
      golden: run.golden ?? true,
      checksum: checked.value,
    };
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/**
 * The `verilator` row: the workload's engine calls replayed through Engine.compare, each stream
 * against the outputs the ts engine gave for it — their digests (`--expect digest`, the default) or
 * the frames themselves (`--expect frames`) — prepared untimed, as verilator-native preloads its
 * stimulus. Timed: the compare calls (commands and expected frames written, the harness process,
 * its verdicts read back). The ts engine's outputs are checked against golden (untimed), so a
 * stream whose verdict is equal is golden too; a stream whose verdict is not equal fails the run.
 */
async function compareChild(prepared: ReturnType<ReturnType<typeof workloads>[string]['prepare']>, count: number) {
  const mode = values.expect;
  if (mode !== 'digest' && mode !== 'frames') throw new Error(`--expect must be digest or frames, got '${mode}'`);
  const engine = await createEngine('verilator');
  let started = performance.now();
  do await prepared.warmUp(engine);
  while (seconds(started) < WARM_UP_SECONDS);
  const warmUpSeconds = seconds(started);
  // Untimed: the ts engine's outputs of the same calls, their checksum, and their golden check.
  const reference = new RecordingEngine(await createEngine('ts'));
  const referenceChecksum = new ChecksumEngine(reference);
  const referenceRun = await prepared.run(referenceChecksum);
  const expectations = reference.calls.map((call) =>
    call.outputs.map((frames): ExpectedOutputs => (mode === 'digest' ? { digest: outputDigest(frames) } : { frames })),
  );
  const timed = new ChecksumEngine(engine);
  let cycles = 0;
  let differing = 0;
  started = performance.now();
  for (const [index, call] of reference.calls.entries()) {
    const verdicts = await timed.compare(
      call.design,
      call.inputs.map((inputs, stream) => ({ inputs, expected: expectations[index]![stream]! })),
    );
    for (const verdict of verdicts) {
      cycles += verdict.cycles;
      if (!verdict.equal) differing++;
    }
  }
  const workloadSeconds = seconds(started);
  return {
    count,
    cycles,
    runSeconds: timed.engineSeconds,
    runCpuSeconds: null,
    workloadSeconds,
    warmUpSeconds,
    // A stream whose verdict is not equal differs from outputs that are golden (or, without a golden
    // model, from the ts engine's): it fails the run even without a ts row to compare checksums with.
    mismatches: referenceRun.mismatches() + differing,
    golden: differing > 0 || (referenceRun.golden ?? true),
    // Every verdict equal: these outputs are the ts engine's, so is their checksum.
    checksum: differing === 0 ? referenceChecksum.value : `${differing} streams differ from ts`,
  } satisfies ChildReport;
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

interface Row {
  readonly engine: BenchEngine;
  readonly report: ChildReport;
  readonly process: ProcessMeasure;
  /** cycles/s of every round (--repeat), the row being the median. */
  readonly spread?: readonly number[];
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
/** Cycles per CPU-second (per core), where the row's CPU time is known. */
const cyclesPerCpuSecond = (row: Row | undefined): number | null =>
  row?.report.runCpuSeconds ? row.report.cycles / row.report.runCpuSeconds : null;
const lastLine = (measure: ProcessMeasure): string => measure.stdout.trim().split('\n').pop()!;

/** One engine's figures on one workload, as --json prints them. */
interface JsonRow {
  readonly cyclesPerSecond: number;
  /** Cycles per CPU-second of the timed span (per core); null where it is not known (ChildReport.runCpuSeconds). */
  readonly cpuCyclesPerSecond: number | null;
  readonly unitsPerSecond: number;
  readonly count: number;
  readonly cycles: number;
  readonly runSeconds: number;
  readonly workloadSeconds: number;
  readonly extrapolated: boolean;
  readonly peakMegabytes: number;
  readonly equalGolden: boolean | null;
  readonly checksum: string;
  readonly equalTs: boolean | null;
  /** cycles/s of every round with --repeat (the row is the median). */
  readonly roundCyclesPerSecond?: readonly number[];
}

async function main(): Promise<void> {
  const seed = Number(values.seed);
  if (values.child === 'compile') return compileChild();
  if (values.child !== undefined)
    return runChild(values.child as BenchEngine, values.workload!, Number(values.count), seed);

  const engines = values.engines.split(',') as BenchEngine[];
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
      '--expect',
      String(values.expect),
      ...args,
    ]);
  const print = (line: string): void => {
    if (!values.json) console.log(line);
  };
  const loadBefore = loadavg()[0]!;

  const mmas = Number(values.mmas);
  const streams = (total: number): Record<BenchEngine, number> => ({
    ts: total,
    'ts-lanes': total,
    verilator: total,
    'verilator-native': total,
    'verilator-outputs': total,
    icarus: Math.max(1, Math.round(total * ICARUS_SHARE)),
  });
  const plan: readonly {
    workload: string;
    total: number;
    counts: Record<BenchEngine, number>;
    heapMegabytes?: number;
  }[] = [
    {
      workload: 'mma',
      total: mmas,
      counts: {
        ts: Number(values['ts-mmas'] ?? mmas),
        'ts-lanes': Number(values['ts-mmas'] ?? mmas),
        verilator: mmas,
        'verilator-native': mmas,
        'verilator-outputs': mmas,
        icarus: Number(values['icarus-mmas']),
      },
      heapMegabytes: MMA_HARNESS_HEAP_MB,
    },
    {
      workload: 'decoder',
      total: Number(values['decoder-streams']),
      counts: streams(Number(values['decoder-streams'])),
    },
    { workload: 'fuzz', total: Number(values['fuzz-streams']), counts: streams(Number(values['fuzz-streams'])) },
    {
      workload: 'pipeline',
      total: Number(values['pipeline-kcycles']),
      counts: streams(Number(values['pipeline-kcycles'])),
    },
  ];

  const compileMeasure = await child(['--child', 'compile']);
  const compile = JSON.parse(lastLine(compileMeasure)) as { elaborateSeconds: number; codegenSeconds: number };
  print(
    `In-process compile of MmaUnit alone: elaborate ${format(compile.elaborateSeconds, 1)} s + codegen ${format(compile.codegenSeconds, 1)} s, peak ${format(compileMeasure.peakMegabytes)} MB (load average ${loadBefore.toFixed(1)}).`,
  );

  let failed = false;
  const json: Record<string, Record<string, JsonRow>> = {};
  for (const { workload, total, counts, heapMegabytes } of plan) {
    if (total === 0) continue;
    const rows: Row[] = [];
    // --repeat n: every engine n times, round after round, each row its median run (by run s),
    // so a load that comes and goes on a shared machine hits every engine alike.
    const rounds = Number(values.repeat);
    if (!Number.isInteger(rounds) || rounds < 1)
      throw new Error(`--repeat must be a whole number ≥ 1, got ${values.repeat}`);
    const measured = new Map<BenchEngine, Row[]>();
    for (let round = 0; round < rounds; round++)
      for (const engine of engines) {
        // verilator-native preloads the whole stimulus, built from every stream's vectors at once
        // (10^4 MMAs do not fit the cap): its Node process is a loader, and the cap is for engines.
        const measure = await child(
          ['--child', engine, '--workload', workload, '--count', String(counts[engine])],
          engine === 'verilator-native' ? undefined : heapMegabytes,
        );
        const list = measured.get(engine) ?? [];
        list.push({ engine, report: JSON.parse(lastLine(measure)) as ChildReport, process: measure });
        measured.set(engine, list);
      }
    for (const engine of engines) {
      const list = [...measured.get(engine)!].sort((a, b) => a.report.runSeconds - b.report.runSeconds);
      const row = list[Math.floor(list.length / 2)]!;
      rows.push({ ...row, spread: list.map((each) => cyclesPerSecond(each)) });
    }
    const { unit, description } = workloads(Number(values.batch))[workload]!;
    const ts = rows.find((row) => row.engine === 'ts');
    const native = rows.find((row) => row.engine === 'verilator-native');
    print(
      `\n${description}; ${format(total)} ${unit}, seed ${seed}, no tracing, results checked against golden and the ts engine's outputs (load average ${loadavg()[0]!.toFixed(1)}).`,
    );
    print(
      `| engine | ${unit} | cycles | run s | ${unit}/s | cycles/s | ts ÷ engine | engine ÷ native | cycles/CPU-s | per core ÷ native | warm-up s | peak MB | = golden | = ts |${rounds > 1 ? ' cycles/s of each round |' : ''}`,
    );
    print(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|${rounds > 1 ? '---|' : ''}`);
    json[workload] = {};
    for (const row of rows) {
      const { report } = row;
      const extrapolated = report.count < total;
      const prefix = extrapolated ? ` (first ${format(report.count)}, rate extrapolated)` : '';
      const ratio = (of: Row | undefined, to: Row | undefined): string =>
        of && to ? `${format(cyclesPerSecond(of) / cyclesPerSecond(to), 2)}×` : '—';
      const goldenEqual = report.golden ? report.mismatches === 0 : null;
      // The same work as the ts engine's: the checksums must agree.
      const tsEqual =
        ts && row !== ts && ts.report.count === report.count ? ts.report.checksum === report.checksum : null;
      failed ||= goldenEqual === false || tsEqual === false;
      const equal = goldenEqual === null ? '—' : goldenEqual ? 'yes' : `NO (${report.mismatches})`;
      const perCore = cyclesPerCpuSecond(row);
      const nativePerCore = cyclesPerCpuSecond(native);
      const perCoreRatio = perCore !== null && nativePerCore !== null ? `${format(perCore / nativePerCore, 2)}×` : '—';
      const equalTs = tsEqual === null ? '—' : tsEqual ? 'yes' : `NO (${report.checksum} vs ${ts!.report.checksum})`;
      print(
        `| ${row.engine}${prefix} | ${format(report.count)} | ${format(report.cycles)} | ${format(report.runSeconds, 2)} | ${format(report.count / report.runSeconds, 1)} | ${format(cyclesPerSecond(row))} | ${ratio(ts, row)} | ${ratio(row, native)} | ${perCore === null ? '—' : format(perCore)} | ${perCoreRatio} | ${format(report.warmUpSeconds, 1)} | ${format(row.process.peakMegabytes)} | ${equal} | ${equalTs} |${rounds > 1 ? ` ${(row.spread ?? []).map((rate) => format(rate)).join(', ')} |` : ''}`,
      );
      json[workload][row.engine] = {
        cyclesPerSecond: Math.round(cyclesPerSecond(row)),
        cpuCyclesPerSecond: perCore === null ? null : Math.round(perCore),
        unitsPerSecond: report.count / report.runSeconds,
        count: report.count,
        cycles: report.cycles,
        runSeconds: report.runSeconds,
        workloadSeconds: report.workloadSeconds,
        extrapolated,
        peakMegabytes: Math.round(row.process.peakMegabytes),
        equalGolden: goldenEqual,
        checksum: report.checksum,
        equalTs: tsEqual,
        ...(row.spread ? { roundCyclesPerSecond: row.spread.map(Math.round) } : {}),
      };
    }
  }
  print(
    `\nrun s: ts, icarus and verilator-outputs: the time inside the engine's run/runMany calls on input frames, output frames out (the harness process, its files or pipes and the model included), plus folding the outputs into the checksum; verilator: the time inside Engine.compare calls of the same streams against the ts engine's outputs (${values.expect === 'frames' ? 'their frames, compared word by word in the harness' : 'their digests, folded in the harness'}), prepared untimed; its checks, the commands file, the harness process (kept running from the warm-up on) and the verdicts included; verilator-native: its C++ loop alone (folding included), stimulus already in memory, its process start and stimulus read not timed; the workload's own stimulus building and golden checks left out everywhere (the whole timed run is \`workloadSeconds\` in --json); warm-up s: untimed: elaboration, in-process codegen or the Verilator/Icarus build (quick when cached), then the first unit repeated for 5 s, 2 s with --quick (V8's optimizing tier); peak MB: the child process (verilator-native: its Node loader, uncapped, holding every stream's vectors at once; verilator: also the ts engine's reference run); engine ÷ native: cycles/s against verilator-native; cycles/CPU-s: the cycles over the CPU time of the same span (ts: this process, its compiler and collector threads included; verilator-native: its loop's std::clock; — for an engine behind a harness process), per core ÷ native: that rate against verilator-native's; = golden: verilator: the ts engine's outputs it was found equal to are golden; = ts: the output checksum equals the ts engine's on the same work (verilator: every verdict equal)${Number(values.repeat) > 1 ? `; each row is the median (by run s) of ${values.repeat} rounds in which every engine ran once, in turn, the cycles/s of each round last` : ''}.`,
  );
  if (values.json)
    console.log(
      JSON.stringify({
        seed,
        quick: values.quick,
        loadAverage: { before: loadBefore, after: loadavg()[0] },
        compile: { ...compile, peakMegabytes: Math.round(compileMeasure.peakMegabytes) },
        workloads: json,
      }),
    );
  if (failed) process.exitCode = 1;
}

await main();
