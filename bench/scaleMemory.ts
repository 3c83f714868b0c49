/**
 * Memory and CPU of elaborating the ScaleChain of <nodes> operators and generating its simulator,
 * as one JSON line: the memory left after a forced collection (JS heap and typed-array storage;
 * elaborated, then with the compiled design), the process's peak RSS and each phase's CPU seconds. The 10^6 figures in docs/scale.md
 * and the bound of tests/hardening/scaleMemory.test.ts (at 10^5) come from it.
 *
 *   node --expose-gc --import tsx bench/scaleMemory.ts 1000000
 */
import { elaborate } from '../hw/ir/elaborate.ts';
import { compileDesign } from '../hw/sim/simulator.ts';
import { ChainDesign } from './scaleDesigns.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
/** What is reachable after a full collection: the JS heap and the typed arrays' storage (kept outside it). */
const heapMegabytes = (): number => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 2 ** 20;
};
const nodes = Number(process.argv[2]);
const baseline = heapMegabytes();
const seconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;
let started = process.cpuUsage();
const design = elaborate(ChainDesign, { nodes });
const elaborateCpuSeconds = seconds(process.cpuUsage(started));
const elaborated = heapMegabytes() - baseline;
started = process.cpuUsage();
const compiled = compileDesign(design);
const compileCpuSeconds = seconds(process.cpuUsage(started));
const retained = heapMegabytes() - baseline;
process.stdout.write(
  `${JSON.stringify({
    nodes,
    cells: compiled.flat.cells.length,
    elaboratedMegabytes: elaborated,
    retainedMegabytes: retained,
    peakMegabytes: process.resourceUsage().maxRSS / 1024,
    elaborateCpuSeconds,
    compileCpuSeconds,
  })}\n`,
);
