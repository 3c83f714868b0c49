/**
 * `gen regress --runs N` streams its cases: memory does not grow with N. Under a 64 MB heap a run
 * of 10^12 cases runs chunk after chunk until its time budget (it used to list every case index up
 * front and died of "JavaScript heap out of memory"); the 10^7-case peak is measured under tests/soak.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

const gen = new URL('../../bin/gen.js', import.meta.url).pathname;

describe('gen regress --runs (bounded)', () => {
  it('runs 10^12 cases in bounded memory under a 64 MB heap, and --time-budget ends it with the cases it ran', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'gen-regress-bounded-'));
    try {
      const junit = join(scratch, 'junit.xml');
      const args = ['regress', '--suite', 'LaneDetector', '--engine', 'ts', '--runs', '1000000000000', '--seed', '1'];
      const run = await execa(
        'node',
        ['--max-old-space-size=64', gen, ...args, '--time-budget', '1', '--out', scratch, '--junit', junit],
        { reject: false, env: { CI: '1' }, timeout: 60_000 },
      );
      expect(run.exitCode, run.stderr.slice(-400)).toBe(0);
      const stopped = /LaneDetector on ts: time budget spent after (\d+) of 1000000000000 cases/.exec(run.stderr);
      expect(stopped, run.stderr).not.toBeNull();
      const ran = Number(stopped![1]);
      expect(ran).toBeGreaterThan(0);
      expect(run.stdout).toMatch(new RegExp(`LaneDetector\\s+ts\\s+${ran}\\s+0`));
      // The JUnit file lists exactly the cases that ran.
      const xml = readFileSync(junit, 'utf8');
      expect(xml.match(/<testcase /g)).toHaveLength(ran);
      expect(xml).toContain(`<testsuites name="gen regress" tests="${ran}" failures="0"`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 70_000);
});
