/**
 * Throughput of the memory path model in sector requests per second, on synthetic traces of
 * SpMM-like size (2 M sector requests each). Run: `npx tsx bench/memoryModel.bench.ts`.
 */
import { simulateTrace } from '../verif/memory/pathModel.ts';
import { patternTrace, type PatternOptions } from '../verif/memory/patterns.ts';
import { memoryProfile } from '../verif/memory/profiles.ts';

const SECTORS = 2 ** 21;
const cases: { profile: string; label: string; options: Omit<PatternOptions, 'smCount'> }[] = [
  { profile: 'rtx4090', label: 'stream 64 MiB', options: { pattern: 'stream', bytes: SECTORS * 32 } },
  { profile: 'rtx4090', label: 'random sectors in 16 GiB', options: { pattern: 'random', bytes: 2 ** 34, requests: SECTORS, seed: 1 } },
  { profile: 'rtx4090', label: 'stride 4 KiB over 8 MiB (L2-resident)', options: { pattern: 'stride', bytes: 2 ** 23, strideBytes: 4096 + 32, requests: SECTORS } },
  { profile: 'h200', label: 'stream 64 MiB', options: { pattern: 'stream', bytes: SECTORS * 32 } },
];

for (const { profile: name, label, options } of cases) {
  const profile = memoryProfile(name);
  const trace = patternTrace({ ...options, smCount: profile.sm.count });
  const start = performance.now();
  const result = simulateTrace(profile, trace);
  const seconds = (performance.now() - start) / 1000;
  const rate = result.sectorRequests / seconds / 1e6;
  console.log(
    `${name.padEnd(10)} ${label.padEnd(38)} ${result.sectorRequests} sectors in ${seconds.toFixed(2)} s = ${rate.toFixed(2)} M sectors/s` +
      ` (L1 ${(100 * result.l1.hitRate).toFixed(1)} %, L2 ${(100 * result.l2.hitRate).toFixed(1)} %, bound by ${result.boundingResource})`,
  );
}
