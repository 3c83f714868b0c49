/**
 * Simulated cycles per second and peak memory of the in-process simulator, Verilator and Icarus on
 * the same design and the same stimulus, measured side by side in one run, and the Verilator
 * model under a native C++ loop (bench/nativeHarness.ts: stimulus preloaded, outputs
 * checksummed, the loop timing itself), whose checksum must equal the ts engine's.
 *
 *   npx tsx bench/simulatorSpeed.ts [--cycles 1000000]
 *
 * Every engine runs as its own process (peak memory is then its own); Verilator and Icarus run
 * their engine harness on the batch commands of the binary protocol (engines/harness/harnessStimulus.ts)
 * from a file, writing their frames to a file (build time excluded and reported separately); the
 * in-process simulator runs the same per-cycle poke/peek/step loop. Final outputs must agree.
 */
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { elaborate } from '../hw/ir/elaborate.ts';
import { Simulator } from '../hw/sim/simulator.ts';
import { BenchPipeline } from '../hw/examples/benchPipeline.ts';
import { emitVerilog } from '../hw/verilog/emit.ts';
import { buildVerilatorHarness } from '../engines/verilator/verilatorEngine.ts';
import { buildIcarusTestbench } from '../engines/icarus/icarusEngine.ts';
import { findTool } from '../tools/toolchain.ts';
import { decodeOutputs, FrameReader, harnessPortsOf, streamCommands } from '../engines/harness/harnessStimulus.ts';
import { PortFrames } from '../hw/contract/portFrames.ts';
import { outputWordsOf } from '../engines/harness/batchFiles.ts';
import { measureProcess } from './measureProcess.ts';
import { OutputChecksum, binaryStimulus, buildNativeHarness, runNativeHarness } from './nativeHarness.ts';
import { TsEngine } from '../engines/ts/tsEngine.ts';
import { loadavg } from 'node:os';
import type { PortValues } from '../hw/contract/engine.ts';

const { values } = parseArgs({
  options: { cycles: { type: 'string', default: '1000000' }, child: { type: 'boolean', default: false } },
});
const cycles = Number(values.cycles);

/** The in-process run, in a child of its own: prints the final outputs and the loop's own seconds. */
function runInProcess(): void {
  const simulator = new Simulator(elaborate(BenchPipeline));
  const started = performance.now();
  simulator.poke('enable', 1);
  simulator.poke('reset', 1);
  let count = 0;
  let accumulator = 0n;
  for (let cycle = 0; cycle < cycles; cycle++) {
    if (cycle === 1) simulator.poke('reset', 0);
    count = simulator.peekNumber('count');
    if (cycle === cycles - 1) accumulator = simulator.peek('accumulator');
    simulator.step();
  }
  process.stdout.write(`${count.toString(16)} ${accumulator.toString(16)}\n${(performance.now() - started) / 1000}\n`);
}

async function main(): Promise<void> {
  if (values.child) return runInProcess();
  const design = elaborate(BenchPipeline);
  const ports = harnessPortsOf(design);
  const perCycle = (cycle: number): PortValues =>
    cycle === 0 ? { reset: 1n, enable: 1n } : cycle === 1 ? { reset: 0n } : {};
  const cycleInputs = Array.from({ length: cycles }, (_, cycle) => perCycle(cycle));
  const stimulus = streamCommands(ports, [PortFrames.from(ports.inputs, cycleInputs, ports.top)]);
  const work = mkdtempSync(join(tmpdir(), 'bench-sim-'));
  const input = join(work, 'commands.bin');
  writeFileSync(input, Buffer.concat(stimulus));
  const files = emitVerilog(design);

  let started = performance.now();
  const verilator = await buildVerilatorHarness(files, ports);
  const verilatorBuild = (performance.now() - started) / 1000;
  started = performance.now();
  const icarus = await buildIcarusTestbench(design, files, ports);
  const icarusBuild = (performance.now() - started) / 1000;

  // The last outputs frame a harness wrote, as the in-process child prints its final outputs.
  const lastOutputs = (path: string): string => {
    let last: PortValues = {};
    new FrameReader('bench', outputWordsOf(ports), {
      outputs: (bytes, offset, fourState) => (last = decodeOutputs('bench', ports.outputs, bytes, offset, fourState)),
      ack: () => {},
      line: () => {},
    }).feed(readFileSync(path));
    return `${(last['count'] ?? 0n).toString(16)} ${(last['accumulator'] ?? 0n).toString(16)}`;
  };
  // The harness reads its commands from standard input and writes its frames to standard output.
  const redirected = (file: string, output: string): string[] => ['-c', `exec "$@" <'${file}' >'${output}'`, 'sh'];
  const self = fileURLToPath(import.meta.url);
  const rows: { engine: string; measure: Awaited<ReturnType<typeof measureProcess>>; build: number; final: string }[] =
    [];
  const ts = await measureProcess(process.execPath, ['--import', 'tsx', self, '--child', '--cycles', String(cycles)]);
  const [tsFinal, tsLoopSeconds] = ts.stdout.trim().split('\n');
  rows.push({ engine: 'in-process (ts)', measure: ts, build: 0, final: tsFinal! });
  const verilatorOut = join(work, 'verilator.txt');
  const verilatorRun = await measureProcess('/bin/sh', [...redirected(input, verilatorOut), verilator.binary]);
  rows.push({
    engine: 'verilator -O3',
    measure: verilatorRun,
    build: verilatorBuild,
    final: lastOutputs(verilatorOut),
  });
  const icarusOut = join(work, 'icarus.txt');
  const icarusRun = await measureProcess(
    '/bin/sh',
    [...redirected(input, icarusOut), findTool('vvp'), '-n', icarus.program],
    {
      cwd: work,
    },
  );
  rows.push({ engine: 'icarus', measure: icarusRun, build: icarusBuild, final: lastOutputs(icarusOut) });
  rmSync(work, { recursive: true, force: true });

  started = performance.now();
  const nativeBuild = await buildNativeHarness(files, ports);
  const nativeBuildSeconds = (performance.now() - started) / 1000;
  const native = await runNativeHarness(nativeBuild, binaryStimulus(ports, [cycleInputs]));
  const expected = new OutputChecksum(ports);
  expected.add(await new TsEngine().run(design, cycleInputs));
  const nativeAgrees = native.checksum === expected.value;

  const finals = new Set(rows.map((row) => row.final));
  const tsRate = cycles / ts.seconds;
  console.log(
    `BenchPipeline (LFSR → 64-bit popcount → pipelined MAC), ${cycles.toLocaleString('en-US')} cycles, same stimulus; outputs agree: ${finals.size === 1 ? 'yes' : `NO (${[...finals].join(' | ')})`}; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log('| engine | cycles/s | in-process ÷ engine | run s | build s | peak MB |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const rate = cycles / row.measure.seconds;
    console.log(
      `| ${row.engine} | ${Math.round(rate).toLocaleString('en-US')} | ${(tsRate / rate).toFixed(2)}× | ${row.measure.seconds.toFixed(2)} | ${row.build.toFixed(1)} | ${row.measure.peakMegabytes.toFixed(0)} |`,
    );
  }
  console.log(
    `| verilator-native (C++ loop, stimulus in memory) | ${Math.round(native.cycles / native.seconds).toLocaleString('en-US')} | ${(tsRate / (native.cycles / native.seconds)).toFixed(2)}× | ${native.seconds.toFixed(2)} | ${nativeBuildSeconds.toFixed(1)} | — |`,
  );
  console.log(
    `verilator-native: its loop alone (no process start-up, no file read); output checksum equal to the ts engine's: ${nativeAgrees ? 'yes' : `NO (${native.checksum} vs ${expected.value})`}.`,
  );
  console.log(
    `In-process simulation loop alone (no Node/tsx start-up, no elaboration): ${Math.round(cycles / Number(tsLoopSeconds)).toLocaleString('en-US')} cycles/s.`,
  );
  if (finals.size !== 1 || !nativeAgrees) process.exitCode = 1;
}

await main();
