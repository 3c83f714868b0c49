/**
 * How elaboration, simulator code generation, Verilog emission and simulation grow with design
 * size, and whether a million-cycle traced run stays in bounded memory.
 *
 *   npx tsx bench/scale.ts            # the table in docs/scale.md
 *   npx tsx bench/scale.ts --quick    # smallest sizes only (a smoke run)
 *
 * Each measurement runs in a child process of its own, so its peak memory is its own and one
 * design's garbage does not slow the next.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { elaborate } from '../hw/ir/elaborate.ts';
import { compileDesign, Simulator } from '../hw/sim/simulator.ts';
import { traceToVcd } from '../hw/sim/vcdTrace.ts';
import { emitVerilog } from '../hw/verilog/emit.ts';
import { Counter } from '../hw/examples/counter.ts';
import type { IrDesign } from '../hw/ir/ir.ts';
import { ChainDesign, InstanceChainDesign, WideDesign } from './scaleDesigns.ts';
import { measureProcess } from './measureProcess.ts';

const { values } = parseArgs({
  options: { child: { type: 'string' }, size: { type: 'string' }, quick: { type: 'boolean', default: false } },
});

/** Cycles simulated per size row (enough to time the generated code, short enough for 10^5 nodes). */
const SIM_CYCLES = 100;
const LONG_RUN_CYCLES = 1_000_000;

const DESIGNS: Readonly<Record<string, { label: string; build: (size: number) => IrDesign; input: string }>> = {
  chain: { label: 'chained operators', build: (nodes) => elaborate(ChainDesign, { nodes }), input: 'x' },
  instances: { label: 'instances', build: (instances) => elaborate(InstanceChainDesign, { instances }), input: 'x' },
  wide: { label: 'bits wide', build: (width) => elaborate(WideDesign, { width }), input: 'x' },
};

const SIZES: Readonly<Record<string, readonly number[]>> = values.quick
  ? { chain: [1_000], instances: [100], wide: [4096] }
  : { chain: [1_000, 10_000, 100_000, 1_000_000], instances: [100, 1_000, 10_000], wide: [64, 4096, 65_536] };

const seconds = (since: number): number => (performance.now() - since) / 1000;

/** One (design, size) measurement: prints the phase times as JSON. */
function measureDesign(kind: string, size: number): void {
  const design = DESIGNS[kind]!;
  const cpu = (since: NodeJS.CpuUsage): number => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1e6;
  };
  let started = performance.now();
  let cpuStarted = process.cpuUsage();
  const ir = design.build(size);
  const elaborateSeconds = seconds(started);
  const elaborateCpuSeconds = cpu(cpuStarted);
  started = performance.now();
  cpuStarted = process.cpuUsage();
  const compiled = compileDesign(ir);
  const compileSeconds = seconds(started);
  const compileCpuSeconds = cpu(cpuStarted);
  // The process's peak so far: what elaboration and code generation needed, before emission and simulation.
  const compilePeakMegabytes = process.resourceUsage().maxRSS / 1024;
  started = performance.now();
  const files = emitVerilog(ir);
  const verilogSeconds = seconds(started);
  const verilogBytes = [...files.values()].reduce((total, text) => total + text.length, 0);
  const simulator = new Simulator(compiled);
  started = performance.now();
  for (let cycle = 0; cycle < SIM_CYCLES; cycle++) {
    simulator.poke(design.input, cycle & 0xff);
    simulator.step();
  }
  const simulateSeconds = seconds(started);
  process.stdout.write(
    `${JSON.stringify({ elaborateSeconds, compileSeconds, elaborateCpuSeconds, compileCpuSeconds, compilePeakMegabytes, verilogSeconds, verilogBytes, simulateSeconds })}\n`,
  );
}

/** A million cycles of Counter traced to a VCD: time and the trace's size (memory is read by the parent). */
async function measureLongRun(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const vcd = join(dir, 'counter.vcd');
  try {
    const simulator = new Simulator(elaborate(Counter, { width: 32 }));
    const trace = traceToVcd(simulator, vcd);
    simulator.poke('enable', 1);
    const started = performance.now();
    for (let cycle = 0; cycle < LONG_RUN_CYCLES; cycle += 1000) {
      simulator.step(1000);
      await trace.drainIfNeeded();
    }
    await trace.close();
    process.stdout.write(`${JSON.stringify({ seconds: seconds(started), vcdBytes: statSync(vcd).size })}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const self = fileURLToPath(import.meta.url);
/**
 * V8's old-space limit of every row's process. Uncapped, V8 may grow the heap towards its default
 * limit (GBs here) before collecting, so peak RSS would partly measure the collector's slack. The
 * cap stays at 3 GB, where the rows before the typed-array flat netlist were measured (the
 * 10^6-operator chain then needed more than 1.8 GB); it now peaks at ~1.2 GB capped or not.
 */
const HEAP_CAP_MB = 3072;
const child = (args: readonly string[]) =>
  measureProcess(process.execPath, [`--max-old-space-size=${HEAP_CAP_MB}`, '--import', 'tsx', self, ...args]);

async function main(): Promise<void> {
  if (values.child === 'long') return measureLongRun();
  if (values.child !== undefined) return measureDesign(values.child, Number(values.size));

  console.log(
    `Design size vs. time (s) per phase; ${SIM_CYCLES} simulated cycles per row; each row its own process (Node ${process.version}, V8 heap capped at ${HEAP_CAP_MB} MB); load average (1 min) before each row.`,
  );
  console.log(
    '| design | size | elaborate | simulator codegen | elaborate + codegen (CPU s) | peak MB to there | Verilog emit | Verilog MB | simulate | peak MB | load |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [kind, sizes] of Object.entries(SIZES)) {
    for (const size of sizes) {
      const load = loadavg()[0]!.toFixed(1);
      try {
        const run = await child(['--child', kind, '--size', String(size)]);
        const r = JSON.parse(run.stdout) as Record<string, number>;
        const f = (value: number | undefined): string => (value ?? NaN).toFixed(2);
        console.log(
          `| ${DESIGNS[kind]!.label} | ${size.toLocaleString('en-US')} | ${f(r['elaborateSeconds'])} | ${f(r['compileSeconds'])} | ${f((r['elaborateSeconds'] ?? NaN) + (r['compileSeconds'] ?? NaN))} (${f((r['elaborateCpuSeconds'] ?? NaN) + (r['compileCpuSeconds'] ?? NaN))}) | ${(r['compilePeakMegabytes'] ?? NaN).toFixed(0)} | ${f(r['verilogSeconds'])} | ${((r['verilogBytes'] ?? 0) / 1e6).toFixed(2)} | ${f(r['simulateSeconds'])} | ${run.peakMegabytes.toFixed(0)} | ${load} |`,
        );
      } catch (error) {
        console.log(
          `| ${DESIGNS[kind]!.label} | ${size.toLocaleString('en-US')} | failed: ${String((error as Error).message).split('\n')[0]} |||||||| ${load} |`,
        );
      }
    }
  }
  const long = await child(['--child', 'long']);
  const r = JSON.parse(long.stdout) as { seconds: number; vcdBytes: number };
  console.log(
    `\nCounter (32-bit), ${LONG_RUN_CYCLES.toLocaleString('en-US')} cycles traced to VCD: ${r.seconds.toFixed(1)} s, VCD ${(r.vcdBytes / 1e6).toFixed(0)} MB, peak ${long.peakMegabytes.toFixed(0)} MB`,
  );
}

await main();
