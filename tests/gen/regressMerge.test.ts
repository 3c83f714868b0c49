/**
 * `gen regress merge` as a CI matrix or a batch array job uses it: two shards of one run, each
 * with its JUnit, coverage and failure folders, joined into one result whose JUnit holds every
 * case once, whose failure folders are all there, and whose coverage equals the unsharded run's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { expectCleanFailure, runGen } from '../support/cli.ts';
import { GEN } from '../support/regressRun.ts';
import { junitCounts } from '../verif/regress/junitCounts.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gen-merge-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixture = new URL('../verif/regress/fixtures/plantedBug.ts', import.meta.url).pathname;

/** One `gen regress` of the planted bug and LaneDetector, seed 5, 30 cases, into `folder`. */
const regress = (folder: string, shard: string) =>
  runGen([
    'regress',
    '--load',
    fixture,
    '--suite',
    'PlantedBug,LaneDetector',
    '--runs',
    '30',
    '--seed',
    '5',
    '--shard',
    shard,
    '--shrink-time',
    '1000',
    '--max-saved',
    '1',
    '--out',
    folder,
    '--junit',
    join(folder, 'junit.xml'),
    '--coverage',
    join(folder, 'coverage.json'),
  ]);

const suitesOf = (file: string): unknown => (JSON.parse(readFileSync(file, 'utf8')) as { suites: unknown }).suites;

/**
 * Shard `shard` of `count` of a JUnit file as `gen regress --shard` writes it: one passing suite
 * with every count-th of `runs` cases (about 85 bytes a case).
 */
function writeShardJunit(folder: string, shard: number, count: number, runs: number): void {
  mkdirSync(folder, { recursive: true });
  const fd = openSync(join(folder, 'junit.xml'), 'w');
  const tests = Math.ceil((runs - shard + 1) / count);
  writeSync(
    fd,
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="gen regress" tests="${tests}" failures="0" errors="0" time="1.000">`,
      `  <testsuite name="Big.ts" tests="${tests}" failures="0" errors="0" skipped="0" time="1.000">`,
      '    <properties>',
      '      <property name="seed" value="3"/>',
      '    </properties>',
      '',
    ].join('\n'),
  );
  let lines: string[] = [];
  for (let k = shard - 1; k < runs; k += count) {
    lines.push(`    <testcase classname="Big.ts" name="case ${k} (seed ${1_000_000_000 + k})" time="0.001"/>`);
    if (lines.length < 10_000 && k + count < runs) continue;
    writeSync(fd, `${lines.join('\n')}\n`);
    lines = [];
  }
  writeSync(fd, '  </testsuite>\n</testsuites>\n');
  closeSync(fd);
}

describe('gen regress merge', () => {
  it('joins two shards into the JUnit, failure folders and coverage of one run', async () => {
    const [whole, first, second] = ['whole', 'shard-1', 'shard-2'].map((name) => join(scratch, name));
    const runs = await Promise.all([regress(whole!, '1/1'), regress(first!, '1/2'), regress(second!, '2/2')]);
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(1);
    expect(runs[0]!.stdout).toMatch(/^LaneDetector\s+ts\s+16\/19 84\.2 %\s+—\s+5\/5 100\.0 %$/m);

    const merged = join(scratch, 'merged');
    const run = await runGen(['regress', 'merge', first!, second!, '--out', merged]);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/failing case\(s\) in the merged run/);
    expect(run.stdout).toContain('coverage.json: shards 1/2, 2/2');

    const counts = junitCounts(readFileSync(join(merged, 'junit.xml'), 'utf8'));
    const wholeCounts = junitCounts(readFileSync(join(whole!, 'junit.xml'), 'utf8'));
    expect(counts).toEqual(wholeCounts);
    expect(counts.map(([name, tests]) => [name, tests])).toEqual([
      ['LaneDetector.ts', 30],
      ['PlantedBug.ts', 30],
    ]);
    const caseNames = [...readFileSync(join(merged, 'junit.xml'), 'utf8').matchAll(/name="case (\d+) /g)].map((match) =>
      Number(match[1]),
    );
    expect(caseNames).toEqual([...Array.from({ length: 30 }, (_, k) => k), ...Array.from({ length: 30 }, (_, k) => k)]);

    // One saved failure per shard (--max-saved 1), both in the merged folder.
    const saved = readdirSync(join(merged, 'PlantedBug-ts-5'));
    expect(saved).toHaveLength(2);
    for (const folder of saved) expect(existsSync(join(merged, 'PlantedBug-ts-5', folder, 'case.json'))).toBe(true);

    expect(suitesOf(join(merged, 'coverage.json'))).toEqual(suitesOf(join(whole!, 'coverage.json')));
    // The coverage page next to each JSON, the same holes listed whether sharded or not.
    const holes = (folder: string): string =>
      /<section id="holes">[\s\S]*?<\/section>/.exec(readFileSync(join(folder, 'coverage.html'), 'utf8'))![0];
    expect(holes(merged)).toEqual(holes(whole!));
    expect(holes(whole!)).toContain('<h2>Holes</h2>');
  }, 300_000);

  it('streams the JUnit files: 400,000 cases in two shards (34 MB) merge in a 64 MB heap, in case order', async () => {
    const runs = 400_000;
    const shards = [1, 2].map((shard) => join(scratch, `big-${shard}`));
    for (const [i, folder] of shards.entries()) writeShardJunit(folder, i + 1, 2, runs);
    const merged = join(scratch, 'big-merged');
    const run = await execa('node', [GEN, 'regress', 'merge', ...shards, '--out', merged], {
      reject: false,
      env: { CI: '1', NODE_OPTIONS: '--max-old-space-size=64' },
    });
    expect(run.exitCode, run.stderr.slice(0, 400)).toBe(0);
    expect(run.stdout).toContain(`junit.xml: ${runs} cases, 0 failing`);
    const xml = readFileSync(join(merged, 'junit.xml'), 'utf8');
    expect(xml).toMatch(
      new RegExp(`<testsuites name="gen regress" tests="${runs}" failures="0" errors="0" time="2.000">`),
    );
    const indices = [...xml.matchAll(/name="case (\d+) /g)].map((match) => Number(match[1]));
    expect(indices).toHaveLength(runs);
    expect(indices.every((index, k) => index === k)).toBe(true);
  }, 180_000);

  it('refuses the same shard twice and a folder that is not there, in one line', async () => {
    const missing = await runGen(['regress', 'merge', join(scratch, 'nowhere'), '--out', join(scratch, 'm2')]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr.trim()).toMatch(/nowhere: no such shard folder$/);
    const twice = await runGen([
      'regress',
      'merge',
      join(scratch, 'shard-1'),
      join(scratch, 'shard-1'),
      '--out',
      join(scratch, 'm3'),
    ]);
    expect(twice.exitCode).toBe(1);
    expect(twice.stderr).toMatch(/the same shard given twice\?/);
    expect(twice.stderr).not.toMatch(/\n\s+at /);
    // A shard's cases out of increasing order are not a gen regress JUnit file: joined in order they would be wrong.
    const unordered = join(scratch, 'unordered');
    mkdirSync(unordered);
    writeFileSync(
      join(unordered, 'junit.xml'),
      [
        '<testsuites name="gen regress" tests="2" failures="0" errors="0" time="0.1">',
        '  <testsuite name="S.ts" tests="2" failures="0" errors="0" skipped="0" time="0.1">',
        '    <testcase classname="S.ts" name="case 3 (seed 1)" time="0.1"/>',
        '    <testcase classname="S.ts" name="case 1 (seed 2)" time="0.1"/>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
    const disordered = await runGen(['regress', 'merge', unordered, '--out', join(scratch, 'm4')]);
    expect(disordered.exitCode).toBe(1);
    expect(expectCleanFailure(disordered)).toMatch(
      /junit\.xml: S\.ts lists case 1 after case 3 \(not a JUnit file of gen regress\?\)$/,
    );
    expect(existsSync(join(scratch, 'm4', 'junit.xml'))).toBe(false);
  }, 120_000);
});
