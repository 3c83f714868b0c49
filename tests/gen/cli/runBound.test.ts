import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bounded, runBoundMs } from '../../../gen/cli/runBound.ts';

const dir = mkdtempSync(join(tmpdir(), 'run-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the time bound of an in-process command', () => {
  it('is --timeout when given, else 60 s plus a share per MiB of the inputs that exist', () => {
    writeFileSync(join(dir, 'two-mib'), Buffer.alloc(2 * 2 ** 20));
    expect(runBoundMs('1.5', [], 10)).toBe(1500);
    expect(runBoundMs(undefined, [join(dir, 'two-mib'), join(dir, 'absent')], 10)).toBe(80_000);
    expect(() => runBoundMs('0', [], 10)).toThrow(/--timeout needs a number ≥ 0.001/);
    expect(() => runBoundMs('1e309', [], 10)).toThrow(/beyond/);
  });

  it('runs the work and hands back its result', async () => {
    await expect(bounded('gen test', 60_000, () => 'done')).resolves.toBe('done');
  });
});
