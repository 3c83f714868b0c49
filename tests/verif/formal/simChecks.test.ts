import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGen } from '../../support/cli.ts';

const design = 'verif/formal/examples/handshake.ts';
const boundLine =
  readFileSync(design, 'utf8')
    .split('\n')
    .findIndex((line) => line.includes("'the count stays below bound'")) + 1;
const folder = mkdtempSync(join(tmpdir(), 'gen-sim-checks-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Reset, then starts in cycles 1 and 11: with bound 5 the count is 5, 6, 7 in cycles 7–9 and 17–19. */
const vectors = join(folder, 'two-starts.jsonl');
writeFileSync(
  vectors,
  Array.from({ length: 22 }, (_, cycle) =>
    JSON.stringify({ in: { reset: cycle === 0 ? '1' : '0', start: cycle === 1 || cycle === 11 ? '1' : '0' } }),
  ).join('\n') + '\n',
);

describe('gen sim with assertions', () => {
  it('stops at the first failing assertion with its file:line, cycle and values, exit 1', async () => {
    const run = await runGen([
      'sim',
      '--design',
      design,
      '--top',
      'Handshake',
      '--param',
      'bound=5',
      '--vectors',
      vectors,
    ]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.trim()).toBe(
      `gen: ${design}:${boundLine}: assertion failed at cycle 7 (ts): "the count stays below bound" (counter=0x5)`,
    );
  });

  it('--checks count lists every failing cycle on stderr, writes the outputs, and exits 1', async () => {
    const run = await runGen([
      'sim',
      '--design',
      design,
      '--top',
      'Handshake',
      '--param',
      'bound=5',
      '--vectors',
      vectors,
      '--checks',
      'count',
    ]);
    expect(run.exitCode).toBe(1);
    const cycles = [...run.stderr.matchAll(/assertion failed at cycle (\d+):/g)].map((match) => Number(match[1]));
    expect(cycles).toEqual([7, 8, 9, 17, 18, 19, 7]);
    expect(run.stderr.trim().split('\n').pop()).toMatch(/^gen: 6 assertion failure\(s\); first: /);
    expect(run.stdout.trim().split('\n')).toHaveLength(22);
  });
});
