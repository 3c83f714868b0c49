import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { closeSync, createWriteStream, ftruncateSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure } from '../support/cli.ts';
import { VCD_LIMITS } from '../../waves/vcdReader.ts';

/*
 * Hostile VCD sizes are refused within stated bounds: each `gen` here runs with a 768 MB V8 heap
 * (--max-old-space-size) and must end, with one line, within the test's time limit. Before the
 * limits, 10^5 nested scopes died with a RangeError stack in `wave list`, and 10^7 signals took 4.3 GB.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-wave-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const GEN = new URL('../../bin/gen.js', import.meta.url).pathname;
const HEAP_MB = 768;

/** `gen …` with a bounded heap: running out of it is a crash, which expectCleanFailure rejects. */
const boundedGen = (args: readonly string[]) =>
  execa('node', [`--max-old-space-size=${HEAP_MB}`, GEN, ...args], { reject: false, env: { CI: '1' } });

/** Writes a VCD from lines produced one at a time (never the whole text in memory). */
async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const stream = createWriteStream(path);
  let batch = '';
  for (const line of lines) {
    batch += `${line}\n`;
    if (batch.length > 1 << 16) {
      if (!stream.write(batch)) await once(stream, 'drain');
      batch = '';
    }
  }
  stream.end(batch);
  await once(stream, 'finish');
}

function* nested(depth: number): Generator<string> {
  yield '$timescale 1ns $end';
  for (let level = 0; level < depth; level++) yield `$scope module s${level} $end`;
  yield '$var wire 1 ! a $end';
  for (let level = 0; level < depth; level++) yield '$upscope $end';
  yield '$enddefinitions $end';
  yield '#0';
  yield '1!';
  yield '#10';
}

function* wide(signals: number): Generator<string> {
  yield '$timescale 1ns $end';
  yield '$scope module top $end';
  for (let index = 0; index < signals; index++) yield `$var wire 1 s${index} s${index} $end`;
  yield '$upscope $end';
  yield '$enddefinitions $end';
  yield '#0';
}

describe('VCD size limits, enforced before the work', () => {
  it(`10^5 nested scopes: wave list and wave show refuse at depth ${VCD_LIMITS.scopeDepth}, in one line`, async () => {
    const path = join(dir, 'deep.vcd');
    await writeLines(path, nested(100_000));
    const [list, show] = await Promise.all([
      boundedGen(['wave', 'list', '--vcd', path]),
      boundedGen(['wave', 'show', '--vcd', path, '--json', join(dir, 'deep.json')]),
    ]);
    expect(expectCleanFailure(list)).toMatch(
      new RegExp(`deep\\.vcd:${VCD_LIMITS.scopeDepth + 2}: scopes nested deeper than ${VCD_LIMITS.scopeDepth}`),
    );
    expect(expectCleanFailure(show)).toMatch(/scopes nested deeper than/);
  }, 60_000);

  it(`scopes nested ${VCD_LIMITS.scopeDepth} deep (the limit) are listed`, async () => {
    const path = join(dir, 'at-limit.vcd');
    await writeLines(path, nested(VCD_LIMITS.scopeDepth));
    const run = await boundedGen(['wave', 'list', '--vcd', path]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`s${VCD_LIMITS.scopeDepth - 1}/\\n\\s+a \\[1\\]`));
  }, 60_000);

  it(`more than ${VCD_LIMITS.signals} signals are refused in one line within a ${HEAP_MB} MB heap`, async () => {
    const path = join(dir, 'wide.vcd');
    await writeLines(path, wide(VCD_LIMITS.signals + 10));
    const run = await boundedGen(['wave', 'list', '--vcd', path]);
    expect(expectCleanFailure(run)).toMatch(new RegExp(`wide\\.vcd:\\d+: more than ${VCD_LIMITS.signals} signals`));
  }, 120_000);

  it(`a file over ${VCD_LIMITS.fileBytes / 2 ** 30} GiB is refused before a byte of it is read`, async () => {
    const path = join(dir, 'huge.vcd');
    // Sparse: it costs no disk, and reading it would take minutes.
    const fd = openSync(path, 'w');
    ftruncateSync(fd, VCD_LIMITS.fileBytes + 1);
    closeSync(fd);
    const started = Date.now();
    const run = await boundedGen(['wave', 'list', '--vcd', path]);
    expect(expectCleanFailure(run)).toMatch(/huge\.vcd: 4294967297 bytes, more than the 4 GiB a VCD may have/);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
