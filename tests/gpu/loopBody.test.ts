/**
 * gpu/probes/loopBody.py reads what each stream loop issues per step off the SASS of the
 * twenty-fifth batch (gpu/probes/README.md, "The bounds-tested loops' LDCs"): the bounds-tested
 * loops reload their pointer parameter with an LDC before each load, the whole-step loops and the
 * one-out bounds-tested loop have none.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const PROBES = join(import.meta.dirname, '../../gpu/probes');

/** Each kernel's innermost load loop, by the start of its mangled name: [instructions, LDG, LDC]. */
function loopsOf(file: string): [string, [number, number, number]][] {
  const text = execFileSync('python3', [join(PROBES, 'loopBody.py'), join(PROBES, 'results', file)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return [...text.matchAll(/^\S+ {2}(\S+) {2}(\d+) instructions {2}(\d+) LDG {2}(\d+) LDC$/gm)].map((m) => [
    m[1]!,
    [Number(m[2]), Number(m[3]), Number(m[4])],
  ]);
}

const loops = loopsOf('2026-12-05j/streamLoops.sass');
const loop = (prefix: string) => loops.find(([name]) => name.startsWith(prefix))?.[1];

it('counts an LDC before each load in the bounds-tested loops and none in the whole-step ones', () => {
  expect(loop('_Z12streamListedILi4E')).toEqual([52, 4, 5]);
  expect(loop('_Z12streamListedILi2E')).toEqual([28, 2, 2]);
  expect(loop('_Z11streamOnSms')).toEqual([50, 4, 5]);
  expect(loop('_Z11streamFixedILi4E')).toEqual([51, 4, 4]);
  expect(loop('_Z10streamDeepILi4E')).toEqual([28, 4, 0]);
  expect(loop('_Z10streamDeepILi2E')).toEqual([15, 2, 0]);
});

it('counts no LDC in the one-out bounds-tested loop, which reads as the whole-step one', () => {
  expect(loop('_Z12streamListedILi1E')).toEqual([10, 1, 0]);
  expect(loop('_Z10streamDeepILi1E')).toEqual([9, 1, 0]);
});
