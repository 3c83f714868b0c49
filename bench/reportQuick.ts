/**
 * `gen report --quick` against its two-minute bound: two runs into a temporary folder, the first
 * on the build cache as it is (a fresh clone compiles the Verilator and Icarus models there), the
 * second with the models built, which is the run the bound is for. CPU time covers the whole
 * process tree (the tool builds included); wall time is what a user waits on an idle machine.
 * Run: `npx tsx bench/reportQuick.ts [--json]`; exits non-zero when the second run is over the bound.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureProcess } from './measureProcess.ts';

/** The brief's bound for `gen report --quick`, in seconds of the machine's work. */
const BOUND_SECONDS = 120;

const { values } = parseArgs({ options: { json: { type: 'boolean' } } });
const repo = join(import.meta.dirname, '..');
const folder = mkdtempSync(join(tmpdir(), 'gen-report-bench-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));

const runs = [];
for (const label of ['cache as found', 'models built']) {
  const measure = await measureProcess(
    process.execPath,
    [join(repo, 'bin', 'gen.js'), 'report', '--quick', '--out', join(folder, 'report')],
    {
      cwd: repo,
      env: { ...process.env, CI: '1' },
    },
  );
  runs.push({
    label,
    wallSeconds: measure.seconds,
    cpuSeconds: measure.cpuSeconds,
    peakMegabytes: measure.peakMegabytes,
  });
}
const withinBound = runs[1]!.cpuSeconds < BOUND_SECONDS;
if (values.json)
  console.log(JSON.stringify({ benchmark: 'reportQuick', boundSeconds: BOUND_SECONDS, runs, withinBound }));
else
  for (const run of runs)
    console.log(
      `gen report --quick (${run.label})`.padEnd(40) +
        `wall ${run.wallSeconds.toFixed(1)} s   CPU ${run.cpuSeconds.toFixed(1)} s   peak ${run.peakMegabytes.toFixed(0)} MB`,
    );
if (!withinBound) {
  console.error(
    `gen report --quick took ${runs[1]!.cpuSeconds.toFixed(1)} s of CPU with its models built, over the ${BOUND_SECONDS} s bound`,
  );
  process.exitCode = 1;
}
