/**
 * gpu/probes/homeOrders.py reads the seventeenth batch (l2Partitions streamkeep with its chunks dealt
 * by home partition; docs/system-model.md and gpu/probes/README.md cite what it prints): with every
 * warp's lines half near silicon's one partition reads least and its warps keep pace together; with
 * each warp's lines homed in one partition the near-only warps do not run away, and the partition
 * keeps the far-only warps' lines; Nsight Compute's counts split the hits between the halves. With
 * one load out per warp (the step-timed loop) the near-only warps run away.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const PROBES = join(import.meta.dirname, '../../gpu/probes');
const RESULTS = join(PROBES, 'results');

const run = (...args: string[]): string =>
  execFileSync('python3', [join(PROBES, 'homeOrders.py'), ...args], { encoding: 'utf8', timeout: 60_000 });

/** A row's last-round GB/s: "40 MiB 36 passes split    3,030 3,158  near 0.375". */
function rate(text: string, mib: number, passes: number, order: string): number {
  const row = new RegExp(`^\\s+${mib} MiB\\s+${passes} passes ${order}\\s+[\\d,]+ ([\\d,]+)`, 'm').exec(text);
  return Number(row?.[1]?.replace(',', ''));
}

/** The section of one footprint and passes in the warps or kept part. */
function section(text: string, part: 'warps' | 'kept', heading: string): string {
  const body = text.split(`\n${part}:`)[1]!.split(/\n(?:kept|ncu):/)[0]!;
  return body.split(`  ${heading}`)[1]!.split(/\n {2}\d+ MiB/)[0]!;
}

it('reads the orders off the homeorders batch and the Nsight Compute counts', () => {
  const text = run(join(RESULTS, '2026-12-04j'), join(RESULTS, '2026-12-04k/orderNcu.txt'));
  // The homes set the rate where the partition loses lines, not where it keeps them all.
  expect(rate(text, 40, 36, 'split')).toBeGreaterThan(1.2 * rate(text, 40, 36, 'halves'));
  expect(rate(text, 40, 36, 'natural')).toBeGreaterThan(1.05 * rate(text, 40, 36, 'halves'));
  expect(rate(text, 24, 36, 'split') / rate(text, 24, 36, 'halves')).toBeCloseTo(1, 1);

  const warps = section(text, 'warps', '40 MiB, 36 passes');
  const pace = (group: string) =>
    new RegExp(`${group} ([\\d.]+) → ([\\d.]+)`).exec(warps)!.slice(1).map(Number) as [number, number];
  const [nearFirst, nearLast] = pace('near-only');
  const [farFirst, farLast] = pace('far-only');
  expect(nearLast / nearFirst).toBeGreaterThan(0.75);
  expect(farLast / farFirst).toBeLessThan(0.35);

  const kept = section(text, 'kept', '40 MiB, 36 passes');
  const keptOf = (order: string) =>
    new RegExp(`${order}\\s+homed near ([\\d.]+), homed far ([\\d.]+)`).exec(kept)!.slice(1).map(Number);
  const [halvesNear, halvesFar] = keptOf('halves');
  expect(Math.abs(halvesNear! - halvesFar!)).toBeLessThan(0.02);
  const [splitNear, splitFar] = keptOf('split');
  expect(splitFar!).toBeGreaterThan(4 * splitNear!);

  const hits = /40 MiB near, 36 passes per launch, split: .*far-only warps ([\d.]+), near-only ([\d.]+)/.exec(text)!;
  expect(Number(hits[1])).toBeCloseTo(0.313, 3);
  expect(Number(hits[2])).toBeCloseTo(0.352, 3);
});

it('reads the near-only warps running away off the ordersteps batch, whose loop keeps one load out', () => {
  const text = run(join(RESULTS, '2026-12-04m'));
  expect(rate(text, 40, 36, 'split')).toBeGreaterThan(1.6 * rate(text, 40, 36, 'halves'));
  const warps = section(text, 'warps', '40 MiB, 36 passes');
  const [first, last] = /near-only ([\d.]+) → ([\d.]+)/.exec(warps)!.slice(1).map(Number);
  expect(first!).toBeLessThan(8);
  expect(last! / first!).toBeLessThan(0.9);
  expect(warps).toMatch(/near-only [\d.]+ → [\d.]+ near 1\.00, steps 1920 \/ 2176 \/ 2560/);
});

it('reads the one-home streams off the homeonly batch', () => {
  const text = run(join(RESULTS, '2026-12-04l'));
  for (const order of ['near', 'far']) expect(rate(text, 56, 36, order)).toBeGreaterThan(3700);
  expect(text).toMatch(/near\s+homed near [\d.]+, homed far 0\.00\d/);
});
