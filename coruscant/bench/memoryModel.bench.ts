/**
 * Throughput of the memory path model in sector requests per second, on synthetic traces of
 * SpMM-like size (2 M sector requests each). Run: `npx tsx coruscant/bench/memoryModel.bench.ts`.
 */
import { simulateTrace } from '../../gpu/memory/pathModel.ts';
import { patternTrace, type PatternOptions } from '../../gpu/memory/patterns.ts';
import { memoryProfile } from '../../gpu/memory/profiles.ts';

const SECTORS = 2 ** 21;
const cases: { profile: string; label: string; options: Omit<PatternOptions, 'smCount'> }[] = [
  { profile: 'rtx4090', label: 'stream 64 MiB', options: { pattern: 'stream', bytes: SECTORS * 32 } },
  {
    profile: 'rtx4090',
    label: 'random sectors in 16 GiB',
    options: { pattern: 'random', bytes: 2 ** 34, requests: SECTORS, seed: 1 },
  },
  {
    profile: 'rtx4090',
    label: 'stride 4 KiB over 8 MiB (L2-resident)',
    options: { pattern: 'stride', bytes: 2 ** 23, strideBytes: 4096 + 32, requests: SECTORS },
  },
  { profile: 'h200', label: 'stream 64 MiB', options: { pattern: 'stream', bytes: SECTORS * 32 } },
];

for (const { profile: name, label, options } of cases) {
  const profile = memoryProfile(name);
  const trace = patternTrace({ ...options, smCount: profile.sm.count });
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const result = simulateTrace(profile, trace);
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const rate = (s: number): string => (result.sectorRequests / s / 1e6).toFixed(2);
  // CPU time as well as wall time: on a shared machine the wall clock also counts waiting for a core.
  console.log(
    `${name.padEnd(10)} ${label.padEnd(38)} ${result.sectorRequests} sectors: ${rate(seconds)} M/s wall (${seconds.toFixed(2)} s), ${rate(cpuSeconds)} M/s CPU` +
      ` (L1 ${(100 * result.l1.hitRate).toFixed(1)} %, L2 ${(100 * result.l2.hitRate).toFixed(1)} %, bound by ${result.boundingResource})`,
  );
}
