/**
 * Every path a user gives `gen` is resolved against the working directory the user typed it in,
 * whatever folder an engine runs its simulator in (Icarus runs vvp in a temporary folder).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGen } from '../../support/cli.ts';

const repository = new URL('../../..', import.meta.url).pathname;
// Inside the repository (its gen.config.ts registers Counter), under the gitignored out/.
mkdirSync(join(repository, 'out'), { recursive: true }); // a fresh checkout has no out/ yet
const scratch = mkdtempSync(join(repository, 'out', 'paths-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const VECTORS = [
  '{"in":{"reset":1}}',
  '{"in":{"reset":0,"enable":1}}',
  '{"in":{}}',
  '{"in":{}, "expect":{"count":"2"}}',
];

describe('relative paths', () => {
  it.each(['ts', 'icarus', 'verilator'])(
    'gen sim --engine %s writes --vcd and --out where the user is',
    async (engine) => {
      const folder = join(scratch, engine);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'v.jsonl'), `${VECTORS.join('\n')}\n`);
      const run = await runGen(
        [
          'sim',
          '--top',
          'Counter',
          '--vectors',
          'v.jsonl',
          '--engine',
          engine,
          '--vcd',
          'waves/counter.vcd',
          '--out',
          'o.jsonl',
        ],
        { cwd: folder },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      expect(readFileSync(join(folder, 'waves', 'counter.vcd'), 'utf8')).toMatch(/\$var .* count /);
      expect(readFileSync(join(folder, 'o.jsonl'), 'utf8').trim().split('\n')).toHaveLength(VECTORS.length);
    },
  );
});
