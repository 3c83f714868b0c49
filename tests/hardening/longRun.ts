import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measuredGen } from './support/measured.ts';

/** What a long `gen sim` of the counter gave: its exit, time, peak memory, and what it left behind. */
export interface LongRun {
  readonly exitCode: number | undefined;
  readonly stderr: string;
  readonly milliseconds: number;
  readonly peakMiB: number;
  /** The last line of the outputs file. */
  readonly lastLine: string;
  readonly outputLines: number;
  readonly vcdBytes: number;
  /** Files of the output folder besides the outputs and the VCD (a temporary left behind). */
  readonly leftovers: readonly string[];
}

/** A vector file of `cycles` cycles of the counter: reset, then counting with nothing changed. */
function counterVectors(path: string, cycles: number): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, '{"in": {"reset": "1", "enable": 1}}\n{"in": {"reset": "0"}}\n');
    const block = '{"in": {}}\n'.repeat(10_000);
    let left = cycles - 2;
    for (; left >= 10_000; left -= 10_000) writeSync(fd, block);
    writeSync(fd, '{"in": {}}\n'.repeat(left));
  } finally {
    closeSync(fd);
  }
}

/** The last line of a file, read from its end. */
function lastLineOf(path: string): string {
  const size = statSync(path).size;
  const length = Math.min(size, 4096);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8').trimEnd().split('\n').pop()!;
}

/** Newlines in a file, counted a block at a time. */
function linesOf(path: string): number {
  const fd = openSync(path, 'r');
  const buffer = Buffer.alloc(1 << 20);
  let lines = 0;
  try {
    for (let got = readSync(fd, buffer); got > 0; got = readSync(fd, buffer))
      for (let at = buffer.indexOf(10); at >= 0 && at < got; at = buffer.indexOf(10, at + 1)) lines++;
  } finally {
    closeSync(fd);
  }
  return lines;
}

/**
 * Runs `gen sim` of the counter for `cycles` cycles on `engine` (outputs to a file, a VCD when
 * `vcd`) as a user would, measuring its wall time and peak resident memory (the gen process; an
 * external simulator is a process of its own), and what it left in its output folder.
 */
export async function longCounterRun(engine: string, cycles: number, vcd: boolean): Promise<LongRun> {
  const dir = mkdtempSync(join(tmpdir(), 'long-run-'));
  try {
    const vectors = join(dir, 'vectors.jsonl');
    counterVectors(vectors, cycles);
    const out = join(dir, 'out');
    const outputs = join(out, 'run.jsonl');
    const trace = join(out, 'run.vcd');
    const run = await measuredGen([
      'sim',
      '--top',
      'Counter',
      '--engine',
      engine,
      '--vectors',
      vectors,
      '--out',
      outputs,
      ...(vcd ? ['--vcd', trace] : []),
    ]);
    const left = readdirSync(out);
    return {
      exitCode: run.exitCode,
      stderr: run.stderr,
      milliseconds: run.milliseconds,
      peakMiB: run.peakMiB,
      lastLine: left.includes('run.jsonl') ? lastLineOf(outputs) : '',
      outputLines: left.includes('run.jsonl') ? linesOf(outputs) : 0,
      vcdBytes: left.includes('run.vcd') ? statSync(trace).size : 0,
      leftovers: left.filter((name) => name !== 'run.jsonl' && name !== 'run.vcd'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The counter's (8 bits, enabled from cycle 0, reset in cycle 0) output line of the last of `cycles` cycles. */
export function lastCounterLine(cycles: number): string {
  const last = cycles - 1;
  return JSON.stringify({ cycle: last, out: { count: `0x${((last - 1) % 256).toString(16)}` } });
}
