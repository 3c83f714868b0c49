/**
 * `make bench`: every benchmark, one after another, each printing its own table.
 * Arguments after `--` are passed on (e.g. `npx tsx bench/run.ts -- --cycles 100000`).
 */
import { execa } from 'execa';

const passOn = process.argv.slice(2).filter((arg) => arg !== '--');

/** Each benchmark and its arguments; the session figures are JSON, for CI to keep. */
const BENCHMARKS: readonly (readonly [string, readonly string[]])[] = [
  ['bench/startup.ts', []],
  ['bench/reportQuick.ts', []],
  ['bench/simulatorSpeed.ts', passOn],
  ['coruscant/bench/mmaSpeed.ts', []],
  ['coruscant/bench/memoryModel.bench.ts', []],
  ['bench/sessionSpeed.ts', ['--json']],
  ['bench/farmThroughput.ts', []],
];

for (const [script, args] of BENCHMARKS) {
  console.log(`\n== ${script}`);
  await execa('npx', ['tsx', script, ...args], { stdio: 'inherit' });
}
