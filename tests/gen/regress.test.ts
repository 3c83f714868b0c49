/**
 * `gen regress` as a user runs it: a planted RTL bug (tests/verif/regress/fixtures/plantedBug.ts,
 * loaded with --load) is caught on worker threads, shrunk, saved with its waveform, picture and
 * replay command, and that command, run as printed, reproduces the failure; JUnit counts match.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runGen, expectCleanFailure } from '../support/cli.ts';
import { junitCounts } from '../verif/regress/junitCounts.ts';
import { ENGINES } from '../../engines/index.ts';

const scratch = mkdtempSync(join(tmpdir(), 'gen-regress-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const fixture = new URL('../verif/regress/fixtures/plantedBug.ts', import.meta.url).pathname;
const repository = new URL('../..', import.meta.url).pathname;

describe('gen regress', () => {
  it('catches a planted bug, shrinks it, saves a replayable folder, and the replay command reproduces it', async () => {
    const junit = join(scratch, 'junit.xml');
    const run = await runGen([
      'regress',
      '--load',
      fixture,
      '--suite',
      'PlantedBug',
      '--engine',
      'ts',
      '--runs',
      '40',
      '--seed',
      '11',
      '--jobs',
      '2',
      '--max-saved',
      '1',
      '--out',
      scratch,
      '--junit',
      junit,
    ]);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/failing case\(s\)/);
    const [failing, more] = [...run.stdout.matchAll(/^FAIL PlantedBug on ts, case (\d+): (.*)$/gm)];
    expect(failing?.[2]).toMatch(/count = 0x[0-9a-f]+, golden 0x[0-9a-f]+ \(shrunk: path [\d:]+\)/);
    expect(more).toBeDefined();

    const folder = join(scratch, 'PlantedBug-ts-11', `case-${failing![1]}`);
    expect(readdirSync(folder).sort()).toEqual([
      'README.txt',
      'case.json',
      'divergence.svg',
      'stimulus.jsonl',
      'wave.vcd',
    ]);
    const saved = JSON.parse(readFileSync(join(folder, 'case.json'), 'utf8')) as {
      case: number[];
      path: string;
      runSeed: number;
    };
    // Shrunk to a chunk list that still holds the bad chunk 0b1011, at most a couple of chunks long.
    expect(saved.case).toContain(0b1011);
    expect(saved.case.length).toBeLessThanOrEqual(2);
    expect(saved.runSeed).toBe(11);
    expect(readFileSync(join(folder, 'stimulus.jsonl'), 'utf8')).toContain('{"in":{"bits":"0xb"},"expect":{');
    expect(readFileSync(join(folder, 'wave.vcd'), 'utf8')).toMatch(/\$var .* count /);
    expect(readFileSync(join(folder, 'divergence.svg'), 'utf8')).toMatch(/golden:count[\s\S]*actual:count/);

    const readme = readFileSync(join(folder, 'README.txt'), 'utf8');
    const replay = /^replay: (.*)$/m.exec(readme)![1]!;
    expect(replay).toBe(`npx gen regress --replay ${folder}`);
    expect(/^same as: (.*)$/m.exec(readme)![1]).toContain(`--path ${saved.path}`);
    const rerun = await execa('sh', ['-c', replay], { cwd: repository, reject: false, env: { CI: '1' } });
    expect(rerun.exitCode, rerun.stderr).toBe(1);
    expect(rerun.stdout, rerun.stderr).toContain(`FAIL PlantedBug on ts, case ${failing![1]}: ${failing![2]}`);

    const failures =
      [...run.stdout.matchAll(/^FAIL /gm)].length + Number(/… and (\d+) more/.exec(run.stdout)?.[1] ?? 0);
    expect(junitCounts(readFileSync(junit, 'utf8'))).toEqual([['PlantedBug.ts', 40, failures, 40, failures]]);
  }, 120_000);

  it('passes a clean block with exit 0 and a summary row; refuses an unknown suite with one line', async () => {
    const run = await runGen([
      'regress',
      '--suite',
      'LaneDetector',
      '--engine',
      'ts',
      '--runs',
      '30',
      '--shard',
      '2/3',
      '--seed',
      '5',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^LaneDetector\s+ts\s+10\s+0\s/m);
    expect(expectCleanFailure(await runGen(['regress', '--suite', 'NoSuchBlock']))).toMatch(
      /unknown suite 'NoSuchBlock'/,
    );
    expect(existsSync(join(scratch, 'LaneDetector-ts-5'))).toBe(false);
  }, 120_000);

  it('lists every engine of the engine table with its description under --engine, as gen sim does', async () => {
    for (const command of ['regress', 'sim']) {
      const run = await runGen([command, '--help']);
      expect(run.exitCode, run.stderr).toBe(0);
      const help = run.stdout.replace(/\s+/g, ' ');
      for (const entry of ENGINES) expect(help, command).toContain(`${entry.name}: ${entry.description}`);
    }
  }, 60_000);
});
