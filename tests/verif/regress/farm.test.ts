/**
 * The regression farm for real: a private redis-server on a free loopback port, three `gen worker`
 * processes, one SIGKILLed mid-shard; the farm's JUnit and coverage equal a local run's with the
 * same seed (no case lost or counted twice), and a Redis that goes away mid-run fails the run in
 * one line. Skipped where redis-server is not installed (scripts/setup.sh installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { HAS_REDIS, startRedis } from '../../support/redisServer.ts';
import { comparableJunit, GEN as gen, regressArgs } from '../../support/regressRun.ts';

const fixture = new URL('./fixtures/plantedBug.ts', import.meta.url).pathname;
// Made in beforeAll: a skipped describe (no redis-server) still runs its body, and would leave it behind.
let scratch = '';
const started: ResultPromise[] = [];

const runArgs = (out: string): string[] =>
  regressArgs({
    load: [fixture],
    suites: ['PlantedBug', 'LaneDetector'],
    runs: 3000,
    seed: 11,
    out,
    extra: ['--max-saved', '1', '--shrink-time', '2000'],
  });

describe.skipIf(!HAS_REDIS)('regression farm (BullMQ on Redis)', () => {
  let url = '';
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'gen-farm-'));
    const redis = await startRedis(scratch);
    started.push(redis.server);
    url = redis.url;
  });
  afterAll(() => {
    for (const child of started) child.kill('SIGKILL');
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('three workers, one killed mid-shard: the merged JUnit and coverage equal a local run with the same seed', async () => {
    const workers = [0, 1, 2].map(() => {
      const worker = execa('node', [gen, 'worker', '--farm', url, '--lock-ms', '2000'], {
        reject: false,
        env: { CI: '1' },
      });
      started.push(worker);
      return worker;
    });
    // SIGKILL the first worker as soon as it has started a shard: its lock lapses and another takes it.
    let killed = false;
    workers[0]!.stderr!.on('data', (chunk: Buffer) => {
      if (!killed && /shard .* started/.test(chunk.toString())) {
        killed = true;
        workers[0]!.kill('SIGKILL');
      }
    });
    const farmOut = join(scratch, 'farm');
    const farm = await execa('node', [gen, ...runArgs(farmOut), '--farm', url, '--farm-shards', '3'], {
      reject: false,
      env: { CI: '1' },
    });
    expect(killed).toBe(true);
    expect(farm.stderr).toMatch(/6 shard\(s\) on the farm/);
    const localOut = join(scratch, 'local');
    const local = await execa('node', [gen, ...runArgs(localOut)], { reject: false, env: { CI: '1' } });
    // The planted bug fails cases on both; the same ones.
    expect(farm.exitCode, farm.stderr).toBe(1);
    expect(local.exitCode).toBe(1);
    const xml = (out: string): string => comparableJunit(join(out, 'junit.xml'), out);
    expect(xml(farmOut)).toBe(xml(localOut));
    expect(xml(farmOut)).toMatch(/tests="6000"/);
    expect(readFileSync(join(farmOut, 'coverage.json'), 'utf8')).toBe(
      readFileSync(join(localOut, 'coverage.json'), 'utf8'),
    );
    const readme = (out: string): string =>
      readFileSync(join(out, 'PlantedBug-ts-11', 'case-4', 'README.txt'), 'utf8').replaceAll(out, 'OUT');
    expect(readme(farmOut)).toBe(readme(localOut));
    for (const worker of workers.slice(1)) worker.kill('SIGTERM');
  }, 300_000);

  it('a Redis that goes away mid-run stops the run with one line and exit 1, never a pass', async () => {
    const { server: redis, url: lostUrl } = await startRedis(scratch);
    started.push(redis);
    const submit = execa(
      'node',
      [
        gen,
        ...regressArgs({
          suites: ['LaneDetector'],
          runs: 100_000,
          seed: 1,
          extra: ['--farm', lostUrl, '--farm-timeout', '2', '--out', join(scratch, 'lost')],
        }),
      ],
      { reject: false, env: { CI: '1' } },
    );
    started.push(submit);
    // No worker takes the shards: the run waits on the farm until its Redis is stopped.
    await new Promise<void>((resolve) =>
      submit.stderr!.on('data', (chunk: Buffer) => {
        if (/on the farm at/.test(chunk.toString())) resolve();
      }),
    );
    redis.kill('SIGKILL');
    const run = await submit;
    expect(run.exitCode).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(
      /^gen: lost the farm's Redis at redis:\/\/127\.0\.0\.1:\d+ for 2 s \(.*\); the run is incomplete$/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  }, 60_000);
});
