import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure, runGen } from '../support/cli.ts';
import { parseNpy } from '../../coruscant/golden/io/npy.ts';
import {
  QUOTED_CHARACTERS,
  integerOption,
  joinNegativeValues,
  numberOption,
  quoteValue,
} from '../../common/optionValues.ts';

/*
 * Option values and file values are checked from their text: `--seed abc` is an error (it ran
 * with NaN, so `abc` and `xyz` ran the same cases), long values are quoted shortened (a 10^6-digit
 * value was echoed whole), numbers JSON cannot hold are named as such (`1e309` showed as null),
 * and a negative shape reaches its own check (`--shape -5x10` said "Unknown arguments: 5, x").
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('option validators', () => {
  it('integers: text checked, range and exactness named, values quoted shortened', () => {
    expect(integerOption('seed', '42', { min: 0 })).toBe(42);
    expect(integerOption('seed', '0x10')).toBe(16);
    expect(integerOption('jobs', 3, { min: 1 })).toBe(3);
    expect(() => integerOption('seed', 'abc')).toThrow("--seed needs a whole number, got 'abc'");
    expect(() => integerOption('seed', '1.5')).toThrow(/got '1\.5'/);
    expect(() => integerOption('seed', '')).toThrow(/got ''/);
    expect(() => integerOption('seed', '-1', { min: 0, max: 9 })).toThrow('--seed needs a whole number from 0 to 9');
    expect(() => integerOption('seed', '1e309')).toThrow(
      /'1e309' is beyond ±1\.8e308, the largest number a double \(and JSON\) holds/,
    );
    expect(() => integerOption('seed', '9007199254740993')).toThrow(/beyond ±2\^53/);
    expect(() => integerOption('seed', ['1', '2'])).toThrow('give --seed once');
    const huge = '9'.repeat(1_000_000);
    const message = (() => {
      try {
        integerOption('seed', huge);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message.length).toBeLessThan(200);
    expect(message).toContain('(1000000 characters)');
  });

  it('numbers: finite only, 1e309 named', () => {
    expect(numberOption('rate', '0.25', { min: 0, max: 1 })).toBe(0.25);
    expect(() => numberOption('rate', '1e309')).toThrow(/beyond ±1\.8e308/);
    expect(() => numberOption('rate', 'NaN')).toThrow("--rate needs a number, got 'NaN'");
    expect(() => numberOption('rate', '2', { max: 1 })).toThrow('--rate needs a number ≤ 1');
  });

  it('quoting: short values whole, long ones cut with their length, control characters shown as ?', () => {
    expect(quoteValue('abc')).toBe("'abc'");
    expect(quoteValue('x'.repeat(QUOTED_CHARACTERS))).toBe(`'${'x'.repeat(QUOTED_CHARACTERS)}'`);
    expect(quoteValue('x'.repeat(1000))).toMatch(/^'x+…' \(1000 characters\)$/);
    expect(quoteValue('a\nb')).toBe("'a?b'");
  });

  it('a value starting with - and a digit belongs to the option before it', () => {
    expect(joinNegativeValues(['formats', '--shape', '-5x10'])).toEqual(['formats', '--shape=-5x10']);
    expect(joinNegativeValues(['regress', '--seed', '-5', '--jobs', '2'])).toEqual([
      'regress',
      '--seed=-5',
      '--jobs',
      '2',
    ]);
    expect(joinNegativeValues(['sim', '-h'])).toEqual(['sim', '-h']);
    expect(joinNegativeValues(['x', '--', '--a', '-5'])).toEqual(['x', '--', '--a', '-5']);
  });
});

describe('through the CLI: one line, non-zero exit, the value quoted', () => {
  it('gen regress --seed abc / 1e309 / 10^5 digits / -5, --jobs 0', async () => {
    const runs = await Promise.all(
      [
        ['--seed', 'abc'],
        ['--seed', '1e309'],
        ['--seed', '9'.repeat(100_000)],
        ['--seed', '-5'],
        ['--jobs', '0'],
      ].map((args) => runGen(['regress', '--suite', 'Fp16Multiplier', '--runs', '1', ...args])),
    );
    const [abc, infinite, long, negative, jobs] = runs.map((run) => expectCleanFailure(run));
    expect(abc).toBe("gen: --seed needs a whole number from 0 to 2147483647, got 'abc'");
    expect(infinite).toMatch(/--seed: '1e309' is beyond ±1\.8e308, the largest number a double \(and JSON\) holds/);
    expect(long).toMatch(/\(100000 characters\)/);
    expect(long!.length).toBeLessThan(250);
    expect(negative).toMatch(/--seed needs a whole number from 0 to 2147483647, got '-5'/);
    expect(jobs).toMatch(/--jobs needs a whole number ≥ 1, got '0'/);
  }, 120_000);

  it('gen formats --shape -5x10 is refused by the shape check, not as unknown arguments', async () => {
    const [shape, seed] = await Promise.all([
      runGen(['formats', '--shape', '-5x10']),
      runGen(['formats', '--shape', '8x8', '--seed', 'abc']),
    ]);
    expect(expectCleanFailure(shape)).toBe(
      "gen: --shape must be MxK with 1 ≤ M, K ≤ 65536 (e.g. 9216x9216), got '-5x10'",
    );
    expect(expectCleanFailure(seed)).toBe("gen: --seed needs a whole number, got 'abc'");
  }, 60_000);

  it('vector values: 1e309 named as beyond JSON, a 10^6-digit value quoted shortened, 2^53+ named', async () => {
    const file = (name: string, value: string): string => {
      const path = join(dir, `${name}.jsonl`);
      writeFileSync(path, `{"in": {"reset": ${value}}}\n`);
      return path;
    };
    const runs = await Promise.all(
      [
        file('infinite', '1e309'),
        file('long', `"${'9'.repeat(1_000_000)}"`),
        file('unsafe', '12345678901234567890'),
      ].map((path) => runGen(['sim', '--top', 'Counter', '--vectors', path])),
    );
    const [infinite, long, unsafe] = runs.map((run) => expectCleanFailure(run));
    expect(infinite).toMatch(/infinite\.jsonl:1: 'reset': a number beyond ±1\.8e308 \(such as 1e309\)/);
    expect(infinite).not.toMatch(/null/);
    expect(long).toMatch(/long\.jsonl:1: 'reset': '9+…' \(1000000 characters\) does not fit in 1 bits/);
    expect(long!.length).toBeLessThan(200);
    expect(unsafe).toMatch(/a whole number beyond 2\^53/);
  }, 60_000);
});

describe('.npy header errors quote what the file holds shortened', () => {
  /** A version 2.0 .npy (4-byte header length) with this header text and no data. */
  const npyWithHeader = (header: string): Uint8Array =>
    Buffer.concat([
      Buffer.from('\x93NUMPY\x02\x00', 'latin1'),
      Buffer.from(new Uint32Array([header.length]).buffer),
      Buffer.from(header, 'latin1'),
    ]);
  const long = '9'.repeat(5000);
  it.each([
    ['a 5000-digit dimension', `{'descr': '<f2', 'fortran_order': False, 'shape': (${long},), }`],
    ['a 5000-character dtype', `{'descr': '<${'f'.repeat(5000)}', 'fortran_order': False, 'shape': (1,), }`],
    ['a big-endian 5000-character dtype', `{'descr': '>${'f'.repeat(5000)}', 'fortran_order': False, 'shape': (1,), }`],
    ['a 5000-character key', `{'${'k'.repeat(5000)}': True, }`],
    ['a duplicate 5000-character key', `{'${'k'.repeat(5000)}': True, '${'k'.repeat(5000)}': True, }`],
    ['a shape of 10^4 dimensions', `{'descr': '<f2', 'fortran_order': False, 'shape': (${'1,'.repeat(10_000)}), }`],
  ])('%s', (_, header) => {
    let message = '';
    try {
      parseNpy(npyWithHeader(header), 'hostile.npy');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^hostile\.npy \(byte \d+\): /);
    expect(message.length).toBeLessThan(200);
  });
});
