import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure } from '../support/cli.ts';
import { writeCounterTrace } from '../waves/traceFixtures.ts';

/*
 * A long in-process run has a time bound (`--timeout SECONDS`, or one derived from the input's
 * size): past it gen stops in one line naming the bound, however busy the run keeps its thread.
 */

const dir = mkdtempSync(join(tmpdir(), 'hardening-run-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string): string => join(dir, name);

function gen(args: readonly string[]) {
  return execa('node', [new URL('../../bin/gen.js', import.meta.url).pathname, ...args], {
    reject: false,
    env: { CI: '1' },
    timeout: 150_000,
  });
}

beforeAll(async () => {
  writeFileSync(file('long.jsonl'), '{"in": {"enable": 1}}\n'.repeat(1_000_000));
  await writeCounterTrace(file('a.vcd'), { cycles: 200_000 });
  await writeCounterTrace(file('b.vcd'), { cycles: 200_000 });
}, 120_000);

describe.concurrent('long runs stop at their bound', () => {
  it.each([
    [
      'gen sim (ts) on 10^6 vectors',
      ['sim', '--top', 'Counter', '--vectors', file('long.jsonl'), '--out', file('o.jsonl'), '--timeout', '0.5'],
      /^gen: gen sim: did not finish within 0\.5 s/,
    ],
    [
      'gen wave diff on 2 × 200,000 cycles',
      ['wave', 'diff', file('a.vcd'), file('b.vcd'), '--align', 'cycle', '--timeout', '0.5'],
      /^gen: gen wave diff: did not finish within 0\.5 s/,
    ],
  ])(
    '%s',
    async (_, args, message) => {
      const run = await gen(args);
      expect(run.timedOut, 'no bound').toBe(false);
      expect(expectCleanFailure(run)).toMatch(message);
    },
    180_000,
  );

  it('a bad --timeout is refused in one line', async () => {
    const run = await gen(['wave', 'diff', file('a.vcd'), file('b.vcd'), '--timeout', '-1']);
    expect(expectCleanFailure(run)).toMatch(/--timeout needs a number/);
  }, 180_000);
});
