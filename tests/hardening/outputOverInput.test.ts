import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure, runGen } from '../support/cli.ts';
import { writeCounterTrace } from '../waves/traceFixtures.ts';
import { encodeNpy } from '../../coruscant/golden/io/npy.ts';

/*
 * An output that names an input (directly, through a symlink, or as the folder that holds it)
 * would destroy the input it is computed from; two outputs naming one file would leave one of
 * them. Every command refuses that in one line before running, the input untouched.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-output-over-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string): string => join(dir, name);
const VECTORS = '{"in": {"enable": 1}}\n{"in": {}}\n';

beforeAll(async () => {
  writeFileSync(file('v.jsonl'), VECTORS);
  symlinkSync('v.jsonl', file('link.jsonl'));
  await writeCounterTrace(file('a.vcd'));
  await writeCounterTrace(file('b.vcd'), { plantAt: 3 });
  writeFileSync(file('m.npy'), encodeNpy('float16', [64, 1], new Uint16Array(64).fill(0x3c00)));
});

describe.concurrent('an output naming an input is refused, the input kept', () => {
  it.each([
    [
      'sim --out = --vectors',
      ['sim', '--top', 'Counter', '--vectors', file('v.jsonl'), '--out', file('v.jsonl')],
      'v.jsonl',
      /--out names the same file as --vectors/,
    ],
    [
      'sim --vcd = --vectors through a symlink',
      ['sim', '--top', 'Counter', '--vectors', file('v.jsonl'), '--vcd', file('link.jsonl')],
      'v.jsonl',
      /--vcd names the same file as --vectors/,
    ],
    [
      'sim --out = --vcd',
      ['sim', '--top', 'Counter', '--vectors', file('v.jsonl'), '--out', file('o.txt'), '--vcd', file('o.txt')],
      'v.jsonl',
      /--vcd names the same file as --out/,
    ],
    [
      'wave show --svg = --vcd',
      ['wave', 'show', '--vcd', file('a.vcd'), '--svg', file('a.vcd')],
      'a.vcd',
      /--svg names the same file as --vcd/,
    ],
    [
      'wave diff --svg = B',
      ['wave', 'diff', file('a.vcd'), file('b.vcd'), '--svg', file('b.vcd')],
      'b.vcd',
      /--svg names the same file as b/,
    ],
    [
      'formats encode --out = the folder holding --a',
      ['formats', 'encode', '--a', file('m.npy'), '--out', dir],
      'm.npy',
      /--out .* holds --a/,
    ],
  ])(
    '%s',
    async (_, args, input, message) => {
      const before = readFileSync(file(input));
      const run = await runGen(args);
      expect(expectCleanFailure(run)).toMatch(message);
      expect(readFileSync(file(input))).toEqual(before);
    },
    120_000,
  );
});
