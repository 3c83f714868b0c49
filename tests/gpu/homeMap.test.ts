/**
 * gpu/probes/homeMap.py reads the lines' home partitions off the sixteenth batch's committed maps
 * (docs/system-model.md cites what it prints): a line's home is its 4 KiB block's, the parity of
 * address bits 12, 13, 15, 17 and 19 within a 2 MiB page, and where one partition loses lines a
 * warp's time goes against its share of near-homed lines.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { memoryProfile } from '../../gpu/memory/profiles.ts';
import { expectOneLineError } from './probeScript.ts';

const PROBES = join(import.meta.dirname, '../../gpu/probes');

it("reads 4 KiB homes and the warps' times against them off the linepasses maps", () => {
  const text = execFileSync('python3', [join(PROBES, 'homeMap.py'), join(PROBES, 'results/2026-12-04i/lines.txz')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const purity = (bytes: number) => Number(new RegExp(`blocks of ${bytes} B: purity median ([\\d.]+)`).exec(text)?.[1]);
  expect(purity(4096)).toBe(1);
  expect(purity(8192)).toBeLessThan(0.6);
  expect(text).toMatch(
    /parity of block bits 0b10101011 \(address bits \[12, 13, 15, 17, 19\]\), 0\.99\d+ of the blocks/,
  );
  // The h200 profile's homes are these bits (and the page constants' above them).
  const bits = /address bits \[([\d, ]+)\]\), 0\.99/.exec(text)![1]!.split(', ').map(Number);
  expect(memoryProfile('h200').l2.partitions!.homeAddressBits!.slice(0, bits.length)).toEqual(bits);
  const correlations = [...text.matchAll(/^\s+40-1-\d\s+4224\s+[\d.]+ [\d.]+\s+([+-][\d.]+)/gm)].map((m) =>
    Number(m[1]),
  );
  expect(correlations).toHaveLength(3);
  for (const correlation of correlations) expect(correlation).toBeLessThan(-0.6);
});

// The H100's map (homemap, results/2026-12-06q): the same 4 KiB homes by other bits, bit 16 in place
// of 15, which are the bits whose pairs of loads wait longest from DRAM on the same card
// (spacingbits, tests/gpu/memory/spreadSms.test.ts): the slow pairs are the ones split across the partitions.
it("reads the H100's homes off its own map: bits 12, 13, 16, 17 and 19", () => {
  const text = execFileSync(
    'python3',
    [join(PROBES, 'homeMap.py'), join(PROBES, 'results/2026-12-06q/lines.txz'), 'near-40-1-0.hex', 'near-32-1-0.hex'],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(text).toMatch(/blocks of 4096 B: purity median 1\.000/);
  expect(text).toMatch(/near-32-1-0\.hex's 4 KiB homes: 0\.99\d+ the same/);
  expect(text).toMatch(/address bits \[12, 13, 16, 17, 19\]\), 1\.0000 of the blocks/);
});

it.each([
  [
    ['results/2026-12-06q/lines.txz', 'near-56-3-0.hex'],
    /^homeMap\.py: .*lines\.txz: no map near-56-3-0\.hex \(it has /,
  ],
  [['results/none.txz'], /^homeMap\.py: .*none\.txz: No such file or directory$/],
  [['homeMap.py'], /^homeMap\.py: .*homeMap\.py: not a lines archive/],
  [[], /^usage: python3 gpu\/probes\/homeMap\.py/],
])('bad input %j: one line naming it, exit 1', (args, message) => {
  expectOneLineError(
    join(PROBES, 'homeMap.py'),
    args.map((arg) => (arg.includes('/') || arg.endsWith('.py') ? join(PROBES, arg) : arg)),
    message,
  );
});
