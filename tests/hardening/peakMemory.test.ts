import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

/*
 * The memory bounds of the hardening tests read a child's peak from support/peakMemory.mjs. Linux
 * carries a process's peak RSS across fork and exec (getrusage's maxRSS), so a child started by a
 * process of 256 MiB reported 256 MiB however little it used: the vector-limit tests failed at
 * 315 MiB when they ran late in a large test worker. The hook reads the child's own high-water mark.
 */

const dir = mkdtempSync(join(tmpdir(), 'peak-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PEAK = new URL('./support/peakMemory.mjs', import.meta.url).href;

it.runIf(process.platform === 'linux')(
  'a child reports its own peak, not the peak of the large process that started it',
  () => {
    const file = join(dir, 'peak');
    // A parent that touches 256 MiB, then starts an empty node with the hook.
    const parent = [
      "const { execFileSync } = require('node:child_process');",
      'const big = Buffer.alloc(256 * 1024 * 1024, 1);',
      `execFileSync(process.execPath, ['--import', ${JSON.stringify(PEAK)}, '-e', ''], { env: { ...process.env, PEAK_RSS_FILE: ${JSON.stringify(file)} } });`,
      'if (big[7] !== 1) process.exit(1);',
    ].join('\n');
    execFileSync(process.execPath, ['-e', parent]);
    const childMiB = Number(readFileSync(file, 'utf8')) / 1024;
    expect(childMiB).toBeGreaterThan(10);
    expect(childMiB).toBeLessThan(150);
  },
);
