import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IrDesign } from '../../../hw/ir/ir.ts';
import { buildManifest } from '../../../hw/verilog/manifest.ts';
import { Simulator, compileDesign } from '../../../hw/sim/simulator.ts';
import type { CycleRun, Engine, PortValues } from '../../../hw/contract/engine.ts';
import { PortFrames } from '../../../hw/contract/portFrames.ts';
import { harnessPortsOf } from '../../../engines/harness/harnessStimulus.ts';
import { readVcdFile, type VcdSignal } from '../../../waves/vcdReader.ts';
import { bitsToBigInt } from '../../../waves/vcdValues.ts';

/** A named signal of a design: its DSL path (`Top.inst.name`), width and VCD name. */
export interface NamedSignal {
  readonly path: string;
  readonly width: number;
  readonly vcd: string;
}

/** One stream as coverage sees it: the outputs, and per signal its value in each cycle (undefined: unknown or unobserved). */
export interface StreamSample extends CycleRun {
  /** `values[s][t]`: signal s of `signals` before the edge of cycle t. */
  readonly values: readonly (readonly (bigint | undefined)[])[];
  /** Signals of `signals` the engine did not show (absent from its trace). */
  readonly unobserved: readonly number[];
  /** `m.cover` hits by name, when the engine counts them. */
  readonly covers?: Readonly<Record<string, number>>;
}

const signalCache = new WeakMap<IrDesign, NamedSignal[]>();

/**
 * The design's ports, registers and named wires at every place in the hierarchy (the Verilog
 * manifest's source map), less the clock inputs: sampled before the edge, a clock is always 0.
 */
export function namedSignals(design: IrDesign): NamedSignal[] {
  const known = signalCache.get(design);
  if (known) return known;
  const signals = buildManifest(design)
    .sourceMap.filter(({ path, kind }) => !(kind === 'input' && path.endsWith('.clk')))
    .map(({ path, width, vcd }) => ({ path, width, vcd }));
  signalCache.set(design, signals);
  return signals;
}

/**
 * The in-process engine: the compiled simulator is run here with the engine's step contract, and
 * every named net is read directly in each cycle's `before_edge` phase (no trace written).
 */
function sampleOnTs(design: IrDesign, streams: readonly (readonly PortValues[])[]): StreamSample[] {
  const compiled = compileDesign(design);
  const signals = namedSignals(design);
  const netOf = new Map(
    compiled.flat.nets.namedNets().map((net) => [[design.top, ...net.scope, net.name].join('.'), net.id] as const),
  );
  const nets = signals.map((signal) => netOf.get(signal.path));
  const unobserved = nets.flatMap((net, index) => (net === undefined ? [index] : []));
  const outputNames = [...compiled.flat.outputs.keys()];
  return streams.map((inputs) => {
    const simulator = new Simulator(compiled);
    // As the regression runs engines: failing assertions are counted in `checks`, the case goes on.
    simulator.checkMode = 'count';
    const values = signals.map(() => [] as (bigint | undefined)[]);
    const outputs: PortValues[] = [];
    for (const cycle of inputs) {
      for (const [name, value] of Object.entries(cycle)) simulator.poke(name, value);
      const sampled: PortValues = {};
      for (const name of outputNames) sampled[name] = simulator.peek(name);
      outputs.push(sampled);
      nets.forEach((net, index) => values[index]!.push(net === undefined ? undefined : simulator.readNet(net)));
      simulator.step();
    }
    const checks = simulator.checkResults;
    return {
      outputs,
      frames: PortFrames.from(harnessPortsOf(design).outputs, outputs, design.top),
      values,
      unobserved,
      covers: checks.covers,
      ...((compiled.flat.checks?.length ?? 0) > 0 ? { checks } : {}),
    };
  });
}

/** VCD time of cycle t's `before_edge` sample in the external engines' traces (inputs at 10t, edge at 10t + 5). */
const CYCLE_TIME = 10;

/**
 * An external engine: each stream is run with a VCD of the run, and the named signals are read
 * from it at every cycle's settled time. One process per stream (the harnesses trace one stream
 * per process), so coverage costs a process start per case on these engines.
 */
async function sampleOnExternal(
  engine: Engine,
  design: IrDesign,
  streams: readonly (readonly PortValues[])[],
): Promise<StreamSample[]> {
  const signals = namedSignals(design);
  // A signal's place, by the name the manifest gives it in every engine's trace (`<top>.inst.sig`).
  const indexOf = new Map(signals.map((signal, index) => [signal.vcd, index] as const));
  const placeOf = (signal: VcdSignal): number | undefined => indexOf.get(signal.fullName);
  const dir = mkdtempSync(join(tmpdir(), 'gen-coverage-'));
  try {
    const samples: StreamSample[] = [];
    for (const [index, inputs] of streams.entries()) {
      const vcd = join(dir, `stream-${index}.vcd`);
      const run = await engine.run(design, inputs, { vcd, checks: 'count' });
      const trace = readVcdFile(vcd, { keep: (signal) => placeOf(signal) !== undefined });
      rmSync(vcd, { force: true });
      const idOf = new Map<number, string>();
      for (const signal of trace.signals) {
        const place = placeOf(signal);
        if (place !== undefined && !idOf.has(place)) idOf.set(place, signal.id);
      }
      const unobserved: number[] = [];
      const values = signals.map((_, position) => {
        const id = idOf.get(position);
        const changes = id === undefined ? undefined : trace.changes.get(id);
        if (!changes) {
          unobserved.push(position);
          return inputs.map(() => undefined);
        }
        const perCycle: (bigint | undefined)[] = [];
        let at = -1;
        for (let cycle = 0; cycle < inputs.length; cycle++) {
          const time = cycle * CYCLE_TIME;
          while (at + 1 < changes.times.length && changes.times[at + 1]! <= time) at++;
          perCycle.push(at < 0 ? undefined : bitsToBigInt(changes.values[at]!));
        }
        return perCycle;
      });
      samples.push({ ...run, values, unobserved, ...(run.checks ? { covers: run.checks.covers } : {}) });
    }
    return samples;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs streams on an engine (as `runMany(…, { checks: 'count' })` does: failing assertions are in
 * each run's `checks`) and samples every named signal of the design in every cycle.
 */
export function sampleStreams(
  engine: Engine,
  design: IrDesign,
  streams: readonly (readonly PortValues[])[],
): Promise<StreamSample[]> {
  return engine.name === 'ts'
    ? Promise.resolve(sampleOnTs(design, streams))
    : sampleOnExternal(engine, design, streams);
}
