import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('gen report misuse', () => {
  it('a repeated --out prints one line, exits 1 and writes nothing', async () => {
    const failure = await promisify(execFile)('node', ['bin/gen.js', 'report', '--out', 'a-report', '--out', 'b-report'], { cwd: ROOT }).then(
      () => undefined,
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr.trim().split('\n')).toEqual(['gen: give --out once']);
    expect(failure?.stdout).toBe('');
    for (const folder of ['a-report', 'b-report']) expect(existsSync(join(ROOT, folder))).toBe(false);
  }, 60_000);
});
