/**
 * `make bench`: every benchmark, one after another, each printing its own table.
 * Arguments after `--` are passed on (e.g. `npx tsx bench/run.ts -- --cycles 100000`).
 */
import { execa } from 'execa';

const BENCHMARKS = [
  'bench/startup.ts',
  'bench/simulatorSpeed.ts',
  'coruscant/bench/mmaSpeed.ts',
  'coruscant/bench/memoryModel.bench.ts',
];
const passOn = process.argv.slice(2).filter((arg) => arg !== '--');

for (const script of BENCHMARKS) {
  console.log(`\n== ${script}`);
  await execa('npx', ['tsx', script, ...(script.includes('simulatorSpeed') ? passOn : [])], { stdio: 'inherit' });
}
