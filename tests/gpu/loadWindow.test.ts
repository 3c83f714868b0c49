/**
 * gpu/probes/loadWindow.py reads how many loads the probes' compiled stream loops keep out per warp
 * off the SASS committed with each batch (gpu/probes/README.md, eighteenth batch): the fixed stream of
 * all SMs and the listed SMs' stream of the calibration rows four, the sixteenth batch's build three,
 * and the step-timed loop of `ordersteps` one.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const PROBES = join(import.meta.dirname, '../../gpu/probes');
const SASS = join(PROBES, 'results/2026-12-04n');

function loopsOf(file: string): Map<string, { out: number; sequence: string }> {
  const text = execFileSync('python3', [join(PROBES, 'loadWindow.py'), join(SASS, file)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return new Map(
    [...text.matchAll(/^\S+ {2}(\S+) {2}(\d+) out {2}(\S*)$/gm)].map((m) => [
      m[1]!,
      { out: Number(m[2]), sequence: m[3]! },
    ]),
  );
}

it('reads four loads out in the calibration rows’ loops and three in the sixteenth batch’s', () => {
  for (const build of ['1ef763b', 'b270ca9']) {
    const loops = loopsOf(`l2Partitions-${build}.sass`);
    expect(loops.get('_Z11streamFixedILi4EL8LoadKind0EEvPK5uint4miPj')?.out).toBe(4);
    expect([...loops].find(([name]) => name.startsWith('_Z11streamOnSms'))?.[1].out).toBe(4);
  }
  const sixteenth = loopsOf('l2Partitions-d612a76.sass');
  expect([...sixteenth].find(([name]) => name.startsWith('_Z11streamOnSms'))?.[1].sequence).toContain('LLLxLxxx');
});

it('reads one load out in the step-timed loop of ordersteps', () => {
  const loops = loopsOf('l2Partitions-ordersteps.sass');
  const ordered = [...loops].find(([name]) => name.startsWith('_Z13streamOrdered'))![1];
  expect(ordered.sequence).toContain('LxLxLxLx|LxLxLxLx');
});
