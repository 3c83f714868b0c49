import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGen } from '../support/cli.ts';
import { parseVcd } from '../../waves/vcdReader.ts';
import { writeFileAtomic } from '../../common/atomicWrite.ts';

/*
 * Nothing lost, nothing half-written: a `gen` killed mid-run leaves no file under the output's
 * name; its temporary (a dot-file with the dead pid in its name) is removed by the next write into
 * that directory; concurrent runs into one directory each leave complete files.
 */

const scratch = mkdtempSync(join(tmpdir(), 'hardening-interrupt-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const GEN = new URL('../../bin/gen.js', import.meta.url).pathname;

const temporariesIn = (dir: string): string[] => readdirSync(dir).filter((name) => name.startsWith('.'));

/** Polls until `found()` is true (or the time runs out, which the caller's expectations then catch). */
async function waitFor(found: () => boolean, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (!found() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A long vector file for Counter: enough cycles that the run is still tracing when it is killed. */
function longVectors(path: string, cycles: number): void {
  const lines = [
    '{"in": {"reset": "1", "enable": 1}}',
    '{"in": {"reset": "0"}}',
    ...Array.from({ length: cycles }, () => '{"in": {}}'),
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
}

describe('interrupted gen runs leave no partial outputs', () => {
  for (const signal of ['SIGINT', 'SIGKILL'] as const) {
    it(`gen sim --vcd killed by ${signal} mid-trace: no VCD, and the next run sweeps the temporary`, async () => {
      const dir = join(scratch, signal);
      const out = join(dir, 'waves');
      const vectors = join(dir, 'long.jsonl');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(out, { recursive: true });
      longVectors(vectors, 400_000);
      const child = execa(
        'node',
        [
          GEN,
          'sim',
          '--top',
          'Counter',
          '--vectors',
          vectors,
          '--vcd',
          join(out, 'run.vcd'),
          '--out',
          join(out, 'run.jsonl'),
        ],
        {
          reject: false,
          env: { CI: '1' },
        },
      );
      // Kill once the trace's own temporary exists (not the write probe that comes first, which a
      // loaded machine let this poll see): the run is then mid-write.
      const traceTemporaries = (): string[] => temporariesIn(out).filter((name) => name.startsWith('.run.vcd.'));
      await waitFor(() => traceTemporaries().length > 0, 60_000);
      expect(traceTemporaries(), 'the trace never started').not.toEqual([]);
      child.kill(signal);
      const result = await child;
      expect(result.signal ?? result.exitCode).toBeTruthy();
      expect(existsSync(join(out, 'run.vcd'))).toBe(false);
      expect(existsSync(join(out, 'run.jsonl'))).toBe(false);
      const leftovers = temporariesIn(out);
      // The trace's and the outputs' temporaries (both stream to disk during the run), nothing else.
      expect(leftovers.filter((name) => !/^\.run\.(vcd|jsonl)\.\d+\.[0-9a-f]{8}\.tmp$/.test(name))).toEqual([]);

      // The next write into the directory removes what the dead process left.
      writeFileAtomic(join(out, 'next.txt'), 'next\n');
      expect(temporariesIn(out)).toEqual([]);
      expect(readFileSync(join(out, 'next.txt'), 'utf8')).toBe('next\n');
    }, 120_000);
  }

  it('two gen verilog runs into one directory at once both leave complete, valid files', async () => {
    const out = join(scratch, 'concurrent');
    const [first, second] = await Promise.all([
      runGen(['verilog', '--top', 'Counter', '--out', out]),
      runGen(['verilog', '--top', 'Counter', '--out', out]),
    ]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['Counter.v', 'manifest.json']);
    const verilog = readFileSync(join(out, 'Counter.v'), 'utf8');
    expect(verilog).toMatch(/^module Counter[\s\S]*endmodule\s*$/m);
    expect(verilog.match(/endmodule/g)).toHaveLength(1);
    expect(() => JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).not.toThrow();
    expect(readdirSync(scratch).filter((name) => name.includes('staging'))).toEqual([]);
  }, 120_000);

  it('a completed traced run still produces a readable VCD (the sweep spares live files)', async () => {
    const out = join(scratch, 'complete');
    const vectors = join(scratch, 'short.jsonl');
    longVectors(vectors, 50);
    const run = await runGen([
      'sim',
      '--top',
      'Counter',
      '--vectors',
      vectors,
      '--vcd',
      join(out, 'run.vcd'),
      '--out',
      join(out, 'run.jsonl'),
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const trace = parseVcd(readFileSync(join(out, 'run.vcd'), 'latin1'), 'run.vcd');
    expect(trace.endTime).toBeGreaterThan(100);
    expect(temporariesIn(out)).toEqual([]);
  }, 120_000);
});
