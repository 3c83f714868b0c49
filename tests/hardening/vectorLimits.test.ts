import { afterAll, describe, expect, it } from 'vitest';
import { closeSync, createWriteStream, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure, runGen } from '../support/cli.ts';
import { measuredGen } from './support/measured.ts';
import { MAX_VECTOR_FILE_BYTES, readVectors } from '../../engines/vectors.ts';

/*
 * Vector files: over 512 MiB refused before being read (before: read whole, 1.1 GB RSS for a 1 GB
 * file), within the limit read line by line. Bounds stated per test: time and peak RSS of the child.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-vectors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const COUNTER = {
  inputs: new Map([
    ['reset', 1],
    ['enable', 1],
  ]),
  outputs: new Map([['count', 8]]),
};

describe('vector file size limit and streaming', () => {
  it('a file one byte over 512 MiB is refused in one line, within 30 s and 300 MiB (before: read whole, 615 MiB)', async () => {
    const path = join(dir, 'huge.jsonl');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, MAX_VECTOR_FILE_BYTES + 1); // sparse: no disk used
    closeSync(fd);
    const run = await measuredGen(['sim', '--top', 'Counter', '--vectors', path]);
    expect(expectCleanFailure(run)).toMatch(/huge\.jsonl: vector file is larger than 536870912 bytes/);
    expect(run.milliseconds).toBeLessThan(30_000);
    expect(run.peakMiB).toBeLessThan(300);
  }, 60_000);

  it('a 256 MiB file within the limit is read by line: peak RSS stays under 300 MiB (before: 614 MiB)', async () => {
    // 128 lines of 2 MiB each (a cycle padded with spaces): reading it whole costs 256 MiB of
    // bytes plus 256 MiB of string before a line is parsed.
    const path = join(dir, 'padded.jsonl');
    const stream = createWriteStream(path);
    const padding = ' '.repeat(2 * 1024 * 1024 - 40);
    for (let cycle = 0; cycle < 128; cycle++) {
      const line = cycle === 0 ? '{"in": {"reset": "1", "enable": 1}}' : '{"in": {"reset": "0"}}';
      if (!stream.write(`${line}${padding}\n`)) await once(stream, 'drain');
    }
    stream.end();
    await once(stream, 'finish');
    const run = await measuredGen(['sim', '--top', 'Counter', '--vectors', path, '--out', join(dir, 'out.jsonl')]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.peakMiB, `peak RSS ${run.peakMiB.toFixed(0)} MiB`).toBeLessThan(300);
  }, 120_000);

  it('streamed reading gives the same lines and line numbers as before (CRLF, blank lines, UTF-8 across chunks)', () => {
    const path = join(dir, 'mixed.jsonl');
    const long = `{"in": {"reset": "1"}, "expect": {}}${' '.repeat((1 << 20) - 10)}é\n`;
    writeFileSync(path, `{"in": {"reset": "1"}}\r\n\n${long}{"in": {"enable": "0x1"}}`);
    expect(() => readVectors(path, COUNTER)).toThrow(/mixed\.jsonl:3: not valid JSON/);
    writeFileSync(path, `{"in": {"reset": "1"}}\r\n\n${long.replace('é', ' ')}{"in": {"enable": "0x1"}}`);
    const lines = readVectors(path, COUNTER);
    expect(lines.map((line) => line.line)).toEqual([1, 3, 4]);
    expect(lines[2]!.inputs).toEqual({ enable: 1n });
  });
});

/*
 * A value nested 10^5 deep (JSON.parse builds it without recursion) was quoted in the message
 * through JSON.stringify, which recursed: `RangeError: Maximum call stack size exceeded at
 * parsePortMap`. Now a value that is not a number or string is named by its kind.
 */
describe('deeply nested vector values', () => {
  const DEPTH = 100_000;
  it.each([
    [
      'in',
      `{"in": {"reset": 1}}\n{"in": {"enable": ${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}}}\n`,
      "'enable': an array",
    ],
    [
      'expect',
      `{"in": {"reset": 1}}\n{"in": {}, "expect": {"count": ${'{"x": '.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}}\n`,
      "'count': an object",
    ],
  ])(
    '10^5 levels under %s: one line with the file and line, exit 1',
    async (_key, text, named) => {
      const path = join(dir, 'nested.jsonl');
      writeFileSync(path, text);
      const run = await runGen(['sim', '--top', 'Counter', '--vectors', path]);
      expect(expectCleanFailure(run)).toBe(
        `gen: ${path}:2: ${named} is not a decimal string, "0x…" hex string or non-negative integer`,
      );
      expect(run.exitCode).toBe(1);
    },
    60_000,
  );
});
