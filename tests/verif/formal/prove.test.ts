import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasTool } from '../../../tools/toolchain.ts';
import { runGen, expectCleanFailure } from '../../support/cli.ts';

const design = 'verif/formal/examples/handshake.ts';
const source = readFileSync(design, 'utf8').split('\n');
/** The line of the example that contains `text`: where reports must point (as users see them, via the CLI). */
const lineOf = (text: string): number => source.findIndex((line) => line.includes(text)) + 1;
const boundLine = lineOf("'the count stays below bound'");

const out = mkdtempSync(join(tmpdir(), 'gen-prove-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.skipIf(!hasTool('yosys') || !hasTool('yosys-abc'))('gen prove', () => {
  it('proves true assertions for every cycle, finds a cover reachable with a trace and another unreachable', async () => {
    const run = await runGen(['prove', '--design', design, '--top', 'Handshake', '--out', join(out, 'ok')]);
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const statusOf = (text: string): string | undefined => lines.find((line) => line.includes(text))?.split(/\s+/)[0];
    expect(statusOf('"the count stays below bound"')).toBe('proved');
    expect(statusOf('"idle in the cycle after done"')).toBe('proved');
    expect(statusOf('"the count is 0 while idle"')).toBe('proved');
    expect(statusOf('cover done')).toBe('reachable');
    expect(statusOf('cover count15')).toBe('unreachable');
    // The cover trace reaches done: start in cycle 0, busy for 8 cycles, done in cycle 8.
    expect(run.stdout).toContain('reached at cycle 8');
    const trace = readFileSync(join(out, 'ok', 'cover-Handshake-done.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(trace).toHaveLength(9);
    const sim = await runGen([
      'sim',
      '--design',
      design,
      '--top',
      'Handshake',
      '--vectors',
      join(out, 'ok', 'cover-Handshake-done.jsonl'),
    ]);
    expect(sim.exitCode).toBe(0);
    const last = JSON.parse(sim.stdout.trim().split('\n').pop()!) as { out: Record<string, string> };
    expect(last.out['done']).toBe('0x1');
  });

  it.each(['ts', 'verilator', 'icarus'])(
    'a false assertion gives a counterexample that gen sim --engine %s replays to the same failure, file:line and cycle',
    async (engine) => {
      const folder = join(out, `bad-${engine}`);
      const run = await runGen([
        'prove',
        '--design',
        design,
        '--top',
        'Handshake',
        '--param',
        'bound=5',
        '--out',
        folder,
      ]);
      expect(run.exitCode).toBe(1);
      expect(expectCleanFailure(run)).toBe(
        `gen: 1 assertion(s) of Handshake_bound_5 fail; first: ${design}:${boundLine}`,
      );
      expect(run.stdout).toMatch(/^failed +assert "the count stays below bound"/m);
      expect(run.stdout).toMatch(/^proved +assert "idle in the cycle after done"/m);
      // The shortest failure: start in cycle 0, count 0..5 in cycles 1..6.
      expect(run.stdout).toContain('fails at cycle 6');
      const vectors = join(folder, 'assert-Handshake_bound_5-1.jsonl');
      expect(readFileSync(join(folder, 'assert-Handshake_bound_5-1.vcd'), 'utf8')).toContain('$enddefinitions');
      const sim = await runGen([
        'sim',
        '--design',
        design,
        '--top',
        'Handshake',
        '--param',
        'bound=5',
        '--vectors',
        vectors,
        '--engine',
        engine,
      ]);
      expect(sim.exitCode).toBe(1);
      expect(expectCleanFailure(sim)).toBe(
        `gen: ${design}:${boundLine}: assertion failed at cycle 6 (${engine}): "the count stays below bound" (counter=0x5)`,
      );
    },
  );

  it('refuses a top without checks in one line', async () => {
    const run = await runGen(['prove', '--top', 'Counter']);
    expect(expectCleanFailure(run)).toMatch(/Counter has no assertions or cover points/);
  });
});
