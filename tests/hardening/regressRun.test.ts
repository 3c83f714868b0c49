import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measuredGen } from './support/measured.ts';
import { WORKER_MEMORY_BYTES, capJobs, jobsCap } from '../../verif/regress/workerPool.ts';

/*
 * `gen regress --jobs` is capped by cores and memory (before: --jobs 32 took 9.5 GB, about 300 MB
 * per worker, and --jobs 128 would exhaust 24 GB), and its JUnit file records the run seed and
 * start time (before: neither).
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-regress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gen regress under a regression farm', () => {
  it('the cap: at most the cores, and what fits in 3/4 of the available memory at the measured per-worker figure', () => {
    const cap = jobsCap();
    expect(cap.jobs).toBeGreaterThanOrEqual(1);
    expect(cap.jobs).toBeLessThanOrEqual(cap.cores);
    expect(cap.jobs * WORKER_MEMORY_BYTES).toBeLessThanOrEqual(
      Math.max(WORKER_MEMORY_BYTES, cap.availableBytes * 0.75),
    );
    expect(capJobs(1)).toEqual({ jobs: 1 });
    const capped = capJobs(128);
    expect(capped.jobs).toBe(cap.jobs);
    expect(capped.note).toMatch(
      new RegExp(`^--jobs 128 capped at ${cap.jobs}: ${cap.cores} cores, [\\d.]+ GiB available at 320 MiB per worker$`),
    );
  });

  it('--jobs 32 runs capped (a line says so) within 120 s and 1 GiB peak RSS; JUnit has the seed and the time', async () => {
    const junit = join(dir, 'junit.xml');
    const run = await measuredGen([
      'regress',
      '--suite',
      'tensor',
      '--engine',
      'ts',
      '--runs',
      '12',
      '--seed',
      '1234',
      '--jobs',
      '32',
      '--junit',
      junit,
      '--out',
      join(dir, 'out'),
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`gen regress: --jobs 32 capped at ${jobsCap().jobs}: `));
    expect(run.milliseconds).toBeLessThan(120_000);
    expect(run.peakMiB, `peak RSS ${run.peakMiB.toFixed(0)} MiB`).toBeLessThan(1024);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="gen regress" [^>]* timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"/);
    const suites = xml.match(/<testsuite /g) ?? [];
    expect(suites.length).toBeGreaterThan(0);
    expect(xml.match(/<property name="seed" value="1234"\/>/g)).toHaveLength(suites.length);
    expect(xml).toMatch(/<testcase [^>]* time="\d+\.\d{3}"/);
  }, 180_000);
});
