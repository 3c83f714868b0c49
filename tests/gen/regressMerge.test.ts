/**
 * `gen regress merge` as a CI matrix or a batch array job uses it: two shards of one run, each
 * with its JUnit, coverage and failure folders, joined into one result whose JUnit holds every
 * case once, whose failure folders are all there, and whose coverage equals the unsharded run's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGen } from '../support/cli.ts';
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
  }, 120_000);
});
