/**
 * Start-up time of `gen` as a user meets it: the framework packed (`npm pack`), installed into a
 * fresh `gen init` project outside the repository, then `gen --help` and `gen sim` on a three-line
 * vector file (ts engine) run several times each; the median wall and CPU time are printed.
 * Run: `npx tsx bench/startup.ts` (or `-- --project DIR` to time an already installed project;
 * `--json` prints one JSON object instead of the table, with the machine's load average).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { measureProcess } from './measureProcess.ts';

const RUNS = 7;
/** The target for both commands, in seconds. */
const TARGET_SECONDS = 0.5;

const { values } = parseArgs({
  options: { project: { type: 'string' }, runs: { type: 'string' }, json: { type: 'boolean', default: false } },
});
const runs = Number(values.runs ?? RUNS);
const repo = join(import.meta.dirname, '..');

/** A fresh installed project in a temporary folder, removed on exit. */
async function installedProject(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'gen-startup-'));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  await execa('npm', ['pack', repo, '--pack-destination', work, '--silent'], { cwd: work });
  const tarball = join(
    work,
    readdirSync(work).find((name) => name.endsWith('.tgz'))!,
  );
  const project = join(work, 'project');
  await execa(process.execPath, [join(repo, 'bin', 'gen.js'), 'init', project, `--framework=file:${tarball}`]);
  await execa('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
  return project;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const project = values.project ?? (await installedProject());
writeFileSync(
  join(project, 'three.jsonl'),
  [
    '{"in": {"reset": 1}}',
    '{"in": {"reset": 0, "enable": 1, "value": 200}}',
    '{"in": {"value": 100}, "expect": {"sum": "200"}}',
    '',
  ].join('\n'),
);
// The installed bin script itself, as `npx gen` ends up running it (npx's own start-up excluded).
const gen = join(project, 'node_modules', '.bin', 'gen');
const COMMANDS: Record<string, string[]> = {
  'gen --help': ['--help'],
  'gen sim (3 lines, ts)': ['sim', '--top', 'Accumulator', '--vectors', 'three.jsonl', '--engine', 'ts'],
};

const load = loadavg()[0]!;
if (!values.json)
  console.log(
    `median of ${runs} runs in a fresh installed project (${project}); target ≤ ${TARGET_SECONDS} s; load average ${load.toFixed(1)}`,
  );
const results: Record<string, { wallSeconds: number; cpuSeconds: number; withinTarget: boolean }> = {};
for (const [label, args] of Object.entries(COMMANDS)) {
  const measures = [];
  for (let run = 0; run < runs; run++)
    measures.push(await measureProcess(process.execPath, [gen, ...args], { cwd: project }));
  const wall = median(measures.map((measure) => measure.seconds));
  const cpu = median(measures.map((measure) => measure.cpuSeconds));
  results[label] = { wallSeconds: wall, cpuSeconds: cpu, withinTarget: wall <= TARGET_SECONDS };
  if (!values.json)
    console.log(
      `${label.padEnd(24)} wall ${wall.toFixed(2)} s   CPU ${cpu.toFixed(2)} s${wall <= TARGET_SECONDS ? '' : '   (over target)'}`,
    );
}
if (values.json)
  console.log(JSON.stringify({ runs, targetSeconds: TARGET_SECONDS, loadAverage: load, commands: results }, null, 2));
