/**
 * Where the `verilator` engine's time goes on a workload of coruscant/bench/speedWorkloads.ts, part by part:
 * the commands file written, the harness process started on nothing (process start and model
 * load), the harness's whole run with its frames file, the same with its frames thrown away
 * (/dev/null), Node reading the frames back, folding them into the checksum, and the engine's own
 * runMany of the same streams end to end, and its in-harness compare (`Engine.compare`) against the
 * ts engine's outputs, as digests and as frames — next to the native C++ loop's own time (bench/nativeHarness.ts).
 *
 *   npx tsx coruscant/bench/profileVerilator.ts --workload decoder [--count 400] [--repeat 3] [--seed 1]
 *
 * Every part is timed `--repeat` times; the table gives the fastest and the slowest (the machine is
 * shared), and for the engine's calls the median and range of the native loop's time over theirs
 * in the same round. Builds are the engine's cached ones; the harness process of the engine's
 * calls is the one it keeps running (the first round's first call starts it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../../engines/index.ts';
import { harnessPortsOf, streamCommands } from '../../engines/harness/harnessStimulus.ts';
import { stimulusFrames } from '../../hw/contract/portFrames.ts';
import { buildVerilatorHarness } from '../../engines/verilator/verilatorEngine.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { binaryStimulus, buildNativeHarness, OutputChecksum, runNativeHarness } from '../../bench/nativeHarness.ts';
import { workloads } from './speedWorkloads.ts';
import { framedRun } from '../../engines/framedRun.ts';
import { PortFrames } from '../../hw/contract/portFrames.ts';
import { outputDigest } from '../../engines/outputCompare.ts';

const { values } = parseArgs({
  options: {
    workload: { type: 'string', default: 'decoder' },
    count: { type: 'string' },
    repeat: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    batch: { type: 'string', default: '500' },
  },
});

const DEFAULT_COUNTS: Record<string, number> = { mma: 500, decoder: 400, fuzz: 4000, pipeline: 2000 };
const workload = workloads(Number(values.batch))[values.workload!];
if (!workload) throw new Error(`unknown workload '${values.workload}'`);
const count = Number(values.count ?? DEFAULT_COUNTS[values.workload!]);
const { design, streams } = workload.prepare(count, Number(values.seed)).streams();
const ports = harnessPortsOf(design);
const inputs = streams.map((stream) => stimulusFrames(ports, stream));
const cycles = inputs.reduce((total, frames) => total + frames.cycles, 0);
const files = emitVerilog(design);
const { binary } = await buildVerilatorHarness(files, ports);
const native = await buildNativeHarness(files, ports);
const work = mkdtempSync(join(tmpdir(), 'profile-verilator-'));
const commandsFile = join(work, 'commands.bin');
const framesFile = join(work, 'frames.bin');
const emptyFile = join(work, 'empty.bin');
writeFileSync(emptyFile, Buffer.from(new Uint32Array([5]).buffer));

const times = new Map<string, number[]>();
const timed = async <T>(part: string, body: () => T | Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await body();
  const list = times.get(part) ?? [];
  list.push((performance.now() - started) / 1000);
  times.set(part, list);
  return result;
};
const harness = (frames: string, commands: string): void => {
  const ran = spawnSync(binary, ['--commands', commands, '--frames', frames], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (ran.status !== 0) throw new Error(`harness exited with ${ran.status}`);
};

const engine = await createEngine('verilator');
const ts = await createEngine('ts');
const expected = (await ts.runMany(design, inputs)).map((run) => run.frames);
const stimulus = binaryStimulus(ports, inputs);
// What the compares are given, made before the clock starts (as the benchmark prepares them).
const expectations = {
  digests: inputs.map((frames, index) => ({ inputs: frames, expected: { digest: outputDigest(expected[index]!) } })),
  'output frames': inputs.map((frames, index) => ({ inputs: frames, expected: { frames: expected[index]! } })),
};
for (let round = 0; round < Number(values.repeat); round++) {
  await timed('commands file written', () => {
    const parts = streamCommands(ports, inputs, { frames: true });
    writeFileSync(commandsFile, Buffer.concat(parts));
  });
  await timed('harness start, no cycles', () => harness(framesFile, emptyFile));
  await timed('harness run, frames file', () => harness(framesFile, commandsFile));
  await timed('harness run, frames to /dev/null', () => harness('/dev/null', commandsFile));
  const words = await timed('frames file read', () => {
    const bytes = readFileSync(framesFile);
    return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  });
  await timed('fold into the checksum', () => {
    const checksum = new OutputChecksum(ports);
    checksum.add(framedRun(PortFrames.of(ports.outputs, words, cycles)));
    return checksum.value;
  });
  await timed('engine runMany + fold', async () => {
    const runs = await engine.runMany(design, inputs);
    const checksum = new OutputChecksum(ports);
    for (const run of runs) checksum.add(run);
  });
  for (const [mode, streams] of Object.entries(expectations))
    await timed(`engine compare (expected: ts's ${mode})`, async () => {
      const verdicts = await engine.compare(design, streams);
      if (verdicts.some((verdict) => !verdict.equal)) throw new Error('verilator differs from ts');
    });
  const loop = await runNativeHarness(native, stimulus);
  times.set('native loop (its own clock)', [...(times.get('native loop (its own clock)') ?? []), loop.seconds]);
}
rmSync(work, { recursive: true, force: true });

console.log(
  `${workload.description}: ${count} ${workload.unit}, ${cycles} cycles, ${ports.outputs.length} outputs (${expected[0]!.stride} words/cycle, ${((cycles * expected[0]!.stride * 4) / 1e6).toFixed(1)} MB of output frames)`,
);
// On a shared machine the load moves between rounds: each round's native loop against the same
// round's engine call is the fairer ratio, so the table gives their median and range too.
const nativeTimes = times.get('native loop (its own clock)')!;
const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
console.log('| part | ms (fastest) | ms (slowest) | native ÷ part, same round: median (range) |\n|---|---:|---:|---:|');
for (const [part, list] of times) {
  const ratios = part.startsWith('engine') ? list.map((value, round) => nativeTimes[round]! / value) : [];
  const paired =
    ratios.length > 0
      ? `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
      : '';
  console.log(
    `| ${part} | ${(Math.min(...list) * 1000).toFixed(1)} | ${(Math.max(...list) * 1000).toFixed(1)} | ${paired} |`,
  );
}
console.log(`load average ${loadavg()[0]!.toFixed(1)}`);
