/**
 * The lanes model against one stream at a time, per CPU-second: the streams of a workload
 * (bench/speedWorkloads.ts: the BitmapDecoder suite or the fuzz batch) prepared as frames
 * (untimed), then run again and again for `--seconds` by runLanes in `--lanes` lanes, or by a
 * Simulator per stream (`--lanes 0`), after a warm-up of `--warm-up` seconds. Prints the cycles
 * per CPU-second of this process (V8's compiler and collector threads included) and the CPU time
 * of the first call, which holds the generated code's compile by V8's optimizing tier.
 *
 *   npx tsx coruscant/bench/laneSpeed.ts --workload decoder|fuzz [--streams 400] [--lanes 16] [--seconds 5] [--warm-up 10]
 *
 * Run each lane count in a process of its own: one process's V8 state would colour the next.
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { harnessPortsOf } from '../../engines/harness/harnessStimulus.ts';
import { PortFrames, stimulusFrames } from '../../hw/contract/portFrames.ts';
import { compileDesign, Simulator } from '../../hw/sim/simulator.ts';
import { frameTransfer } from '../../hw/sim/frameTransfer.ts';
import { runLanes } from '../../hw/sim/laneSimulator.ts';
import { workloads } from './speedWorkloads.ts';

const { values } = parseArgs({
  options: {
    workload: { type: 'string', default: 'decoder' },
    streams: { type: 'string', default: '400' },
    lanes: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '5' },
    'warm-up': { type: 'string', default: '10' },
    seed: { type: 'string', default: '1' },
  },
});
if (values.workload !== 'decoder' && values.workload !== 'fuzz')
  throw new Error(`--workload must be decoder or fuzz, got '${values.workload}'`);
const lanes = Number(values.lanes);

const workload = workloads(1)[values.workload]!;
const { design, streams: stimuli } = workload.prepare(Number(values.streams), Number(values.seed)).streams();
const compiled = compileDesign(design);
const ports = harnessPortsOf(design);
const transfer = frameTransfer(compiled, ports.inputs, ports.outputs);
const streams = stimuli.map((stimulus) => {
  const inputs = stimulusFrames(ports, stimulus);
  const outputs = PortFrames.empty(ports.outputs, inputs.cycles);
  return { frames: { inputs: inputs.words, outputs: outputs.words }, cycles: inputs.cycles };
});
const cycles = streams.reduce((total, stream) => total + stream.cycles, 0);

function runAll(): void {
  if (lanes > 0) {
    runLanes(compiled, transfer, streams, { lanes, checkMode: 'count' });
    return;
  }
  for (const stream of streams) {
    const simulator = new Simulator(compiled);
    simulator.checkMode = 'count';
    simulator.runFrames(transfer, stream.frames, 0, stream.cycles);
  }
}

const cpuSecondsOf = (since: NodeJS.CpuUsage): number => {
  const spent = process.cpuUsage(since);
  return (spent.user + spent.system) / 1e6;
};
const firstStarted = process.cpuUsage();
runAll();
const firstCallCpuSeconds = cpuSecondsOf(firstStarted);
const warmUntil = performance.now() + Number(values['warm-up']) * 1000;
while (performance.now() < warmUntil) runAll();
const started = process.cpuUsage();
const until = performance.now() + Number(values.seconds) * 1000;
let rounds = 0;
while (performance.now() < until) {
  runAll();
  rounds++;
}
const cpuSeconds = cpuSecondsOf(started);
console.log(
  JSON.stringify({
    workload: values.workload,
    lanes,
    streams: streams.length,
    cyclesPerCpuSecond: Math.round((cycles * rounds) / cpuSeconds),
    rounds,
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    firstCallCpuSeconds: Number(firstCallCpuSeconds.toFixed(2)),
    loadAverage: loadavg()[0],
  }),
);
