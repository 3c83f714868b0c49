// Run as `node --expose-gc --import tsx scaleMemoryChild.ts <nodes>`: elaborates the ScaleChain of
// <nodes> operators and generates its simulator, and prints one JSON line with what that needed
// (the figures tests/hardening/scaleMemory.test.ts bounds).
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { compileDesign } from '../../../hw/sim/simulator.ts';
import { ChainDesign } from '../../../bench/scaleDesigns.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const heapMegabytes = (): number => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const nodes = Number(process.argv[2]);
const baseline = heapMegabytes();
const started = process.cpuUsage();
const design = elaborate(ChainDesign, { nodes });
const elaborated = heapMegabytes() - baseline;
const compiled = compileDesign(design);
const cpu = process.cpuUsage(started);
const retained = heapMegabytes() - baseline;
process.stdout.write(
  `${JSON.stringify({
    nodes,
    cells: compiled.flat.cells.length,
    elaboratedMegabytes: elaborated,
    retainedMegabytes: retained,
    peakMegabytes: process.resourceUsage().maxRSS / 1024,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  })}\n`,
);
