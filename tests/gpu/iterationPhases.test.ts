/**
 * gpu/probes/iterationPhases.py reads the `stciters` and `flashiters` archives
 * (gpu/probes/h200Batch.sh; here built by the test, so every figure is known): per shape and per
 * group of SMs by blocks held, the median cycles of the first iterations and of the rest, how far
 * apart the group's first-round blocks end an iteration, how far apart an SM's own blocks end the
 * same one, and the plain build's loop cycles beside the marked one's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../gpu/probes/iterationPhases.py');
const work = mkdtempSync(join(tmpdir(), 'gen-iterations-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const NS_PER_CYCLE = 1 / 1.8;
const ITERATIONS = 10;

/**
 * Four lone blocks (SMs 0–3) in lockstep for their first iteration, 3,000 cycles, then 2,000 each,
 * drifting apart by 300 ns per iteration and block; two SMs with two blocks each at 3,000 per
 * iteration throughout, in lockstep; one SM with three blocks at 3,000, a third of it apart.
 */
function archive(name: string, loopScale: number): string {
  const folder = join(work, name);
  mkdirSync(join(folder, 'blocks'), { recursive: true });
  mkdirSync(join(folder, 'iterations'), { recursive: true });
  const blocks = ['block,sm,startNs,endNs,prologueCycles,loopCycles,epilogueCycles'];
  const iterations = ['block,iteration,endCycles,endNs'];
  const sms = [0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6];
  sms.forEach((sm, block) => {
    const lone = sm < 4;
    const third = sm === 6 ? (block - 8) * 1000 * NS_PER_CYCLE : 0;
    let cycles = 0;
    let ns = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const length = lone && i > 0 ? 2000 : 3000;
      cycles += length;
      ns = cycles * NS_PER_CYCLE + (lone ? block * 300 * i : third);
      iterations.push(`${block},${i},${cycles},${Math.round(ns)}`);
    }
    blocks.push(`${block},${sm},0,${Math.round(ns + 1000)},4000,${Math.round(cycles * loopScale)},800`);
  });
  writeFileSync(join(folder, 'blocks', '64x64-50-split8.csv'), blocks.join('\n') + '\n');
  writeFileSync(join(folder, 'iterations', '64x64-50-split8.csv'), iterations.join('\n') + '\n');
  const tgz = join(work, `${name}.tgz`);
  execFileSync('tar', ['czf', tgz, '-C', folder, 'blocks', 'iterations']);
  return tgz;
}

it('reads the first iterations, the rest and the blocks’ spread by group, and the marks’ cost', () => {
  const marked = archive('marked', 1);
  const plain = archive('plain', 0.98);
  const text = execFileSync('python3', [SCRIPT, marked, plain], { encoding: 'utf8', timeout: 60_000 });
  const lines = text.trim().split('\n');
  expect(lines[0]).toMatch(
    /^64x64-50-split8 {2}1 per SM {2}4 blocks {2}cycles: 1st 3000, 2nd 2000, 3rd 2000, rest 2000 {2}\(10 iterations\)/,
  );
  expect(lines[1]).toMatch(
    /^64x64-50-split8 {2}2 per SM {2}4 blocks {2}cycles: 1st 3000, 2nd 3000, 3rd 3000, rest 3000/,
  );
  // Lone blocks: apart by 0 ns at the first iteration, by 0.9 × 300 × 9 ns at the last (p90 − p10 of
  // blocks 0–3 → blocks 3 and 0, rounded to the sample), over a median iteration of 2,000 cycles.
  const spreads = (line: string) =>
    Object.fromEntries([...line.matchAll(/(\d+): ([\d.]+)/g)].map((m) => [m[1], Number(m[2])]));
  const lone = spreads(lines[0]!.split('spread: ')[1]!);
  expect(lone['1']).toBe(0);
  expect(lone['10']).toBeCloseTo((3 * 300 * 9) / (2000 * NS_PER_CYCLE), 1);
  const pairs = spreads(lines[1]!.split('spread: ')[1]!.split('  apart')[0]!);
  expect(Object.values(pairs).every((spread) => spread === 0)).toBe(true);
  // An SM's blocks apart: in step (0), or three taking turns a third of an iteration apart; lone
  // blocks have no partner.
  expect(lines[0]).not.toMatch(/apart/);
  expect(lines[1]).toMatch(/ {2}apart: 0\.00$/);
  expect(lines[2]).toMatch(/^64x64-50-split8 {2}3 per SM {2}3 blocks .* {2}apart: 0\.33$/);
  expect(lines[3]).toMatch(/loop cycles: plain \d+, marked \d+ \(\+2\.0 %\)$/);
});

it('names its usage without an archive', () => {
  expect(() => execFileSync('python3', [SCRIPT], { encoding: 'utf8', stdio: 'pipe' })).toThrow(
    /usage: iterationPhases\.py/,
  );
});

it('ends quietly when its reader stops early (a pipe into head)', () => {
  const tgz = archive('piped', 1);
  // `:` exits before Python starts, so the script's first line meets a closed pipe.
  const run = spawnSync('bash', ['-c', `python3 '${SCRIPT}' '${tgz}' | :`], { encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});
