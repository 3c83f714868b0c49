/**
 * Reactive session speed (Testbench.open) on the three engines, measured side by side in one run:
 * cycles per second of a script that reads an output and steps, one cycle at a time, as a
 * cocotb-style monitor does (`peekStep`), and of a wait for an output value written as a closure
 * (`waitClosure`, the same loop inside waitFor) and as a condition on output values
 * (`waitValues`, which the harness evaluates). Every workload must end on the same cycle and the
 * same value on every engine. Build time is excluded (each engine builds once before the clock).
 *
 *   npx tsx bench/sessionSpeed.ts [--cycles 20000] [--engines ts,verilator,icarus]
 *     [--workloads peekStep,waitClosure,waitValues] [--json]
 *
 * Seconds are wall time of the script's loop; `cpuSeconds` is this process's user+sys time over
 * the loop (the simulator process's own time is not in it).
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { elaborate } from '../hw/ir/elaborate.ts';
import { Counter } from '../hw/examples/counter.ts';
import { Testbench } from '../verif/testbench.ts';
import { createEngine } from '../engines/index.ts';
import type { EngineName } from '../hw/contract/engine.ts';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '20000' },
    engines: { type: 'string', default: 'ts,verilator,icarus' },
    workloads: { type: 'string', default: 'peekStep,waitClosure,waitValues' },
    json: { type: 'boolean', default: false },
  },
});
const cycles = Number(values.cycles);
if (!Number.isSafeInteger(cycles) || cycles < 1 || cycles > 0xffff_ffff)
  throw new Error(`--cycles must be a whole number from 1 to 2^32-1, got ${values.cycles}`);

/** A 32-bit counter: `count` reaches `cycles` after that many enabled cycles, so each workload knows its answer. */
const design = elaborate(Counter, { width: 32 });

/** One workload: runs `cycles` cycles of the session's script and answers with the last count it read. */
interface Workload {
  readonly name: string;
  readonly run: (tb: Awaited<ReturnType<typeof Testbench.open>>, cycles: number) => Promise<bigint>;
}

const WORKLOADS: readonly Workload[] = [
  {
    name: 'peekStep',
    run: async (tb, count) => {
      let last = 0n;
      for (let cycle = 0; cycle < count; cycle++) {
        last = await tb.peek('count');
        await tb.step();
      }
      return last;
    },
  },
  {
    name: 'waitClosure',
    run: async (tb, count) => {
      const target = BigInt(count);
      await tb.waitFor(async () => (await tb.peek('count')) === target, { limit: count });
      return tb.peek('count');
    },
  },
  {
    name: 'waitValues',
    run: async (tb, count) => {
      await tb.waitFor({ count }, { limit: count });
      return tb.peek('count');
    },
  },
];

interface Figure {
  readonly engine: EngineName;
  readonly workload: string;
  readonly cycles: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly cyclesPerSecond: number;
  readonly last: string;
}

async function measure(name: EngineName, workload: Workload): Promise<Figure> {
  const engine = await createEngine(name);
  // The build (cached) and the process start stay outside the clock.
  const warm = await Testbench.open(design, engine);
  await warm.close();
  const tb = await Testbench.open(design, engine);
  tb.poke('enable', 1);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const last = await workload.run(tb, cycles);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await tb.close();
  return {
    engine: name,
    workload: workload.name,
    cycles,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    cyclesPerSecond: Math.round(cycles / seconds),
    last: last.toString(),
  };
}

const figures: Figure[] = [];
const chosen = WORKLOADS.filter((workload) => values.workloads.split(',').includes(workload.name));
for (const workload of chosen)
  for (const name of values.engines.split(',') as EngineName[]) figures.push(await measure(name, workload));

for (const workload of chosen) {
  const answers = new Set(figures.filter((figure) => figure.workload === workload.name).map((figure) => figure.last));
  if (answers.size !== 1) throw new Error(`${workload.name}: the engines disagree: ${[...answers].join(', ')}`);
}

if (values.json) console.log(JSON.stringify({ cycles, load: loadavg()[0], figures }, null, 2));
else {
  console.log(`session speed, ${cycles} cycles, load ${loadavg()[0]!.toFixed(1)}`);
  for (const figure of figures)
    console.log(
      `${figure.workload.padEnd(12)} ${figure.engine.padEnd(10)} ${String(figure.cyclesPerSecond).padStart(9)} cycles/s  ${figure.seconds.toFixed(2)} s wall  ${figure.cpuSeconds.toFixed(2)} s cpu`,
    );
}
