import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectCleanFailure } from '../support/cli.ts';

/*
 * Loading a design runs the user's code: one that never finishes loading must not hold gen
 * forever, and a design in a folder that Node takes for CommonJS (no "type": "module" in the
 * nearest package.json) must load, or say what to do, instead of a misleading require() cycle.
 */

const repository = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const core = JSON.stringify(`${repository}/hw/core/index.ts`);
const dir = mkdtempSync(join(tmpdir(), 'hardening-design-loading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ADDER = `import { defineModule, input, output } from ${core};
export const LoadAdder = defineModule({
  name: 'LoadAdder',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), y: output(4) }),
  build(m, io) {
    io.y.set(io.a.add(io.b).trunc(4));
  },
});
`;
// A folder whose package.json does not say "type": "module" (Node's CommonJS default).
mkdirSync(join(dir, 'plain'));
writeFileSync(join(dir, 'plain', 'package.json'), JSON.stringify({ name: 'plain' }));
writeFileSync(join(dir, 'plain', 'adder.ts'), ADDER);
writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
writeFileSync(join(dir, 'loops.ts'), `${ADDER}\nwhile (Date.now() > 0) {}\n`);
writeFileSync(join(dir, 'waits.ts'), `${ADDER}\nawait new Promise((resolve) => setInterval(() => {}, 1000));\n`);

function gen(args: readonly string[], env: Record<string, string> = {}) {
  return execa('node', [`${repository}/bin/gen.js`, ...args], {
    cwd: dir,
    reject: false,
    env: { CI: '1', ...env },
    timeout: 120_000,
  });
}

describe.concurrent('loading a design file', () => {
  it.each([
    ['loops forever at import', 'loops.ts'],
    ['waits forever at import', 'waits.ts'],
  ])(
    'one that %s is stopped at the bound, in one line naming the file and the bound',
    async (_, name) => {
      const started = Date.now();
      const run = await gen(['list', '--design', name], { GEN_LOAD_TIMEOUT_MS: '3000' });
      expect(run.timedOut, 'no bound').toBe(false);
      expect(expectCleanFailure(run)).toMatch(
        new RegExp(`^gen: ${name.replace('.', '\\.')}: did not finish loading within 3 s .*GEN_LOAD_TIMEOUT_MS`),
      );
      expect(Date.now() - started).toBeLessThan(100_000);
    },
    150_000,
  );

  it('a bad bound is refused in one line', async () => {
    const run = await gen(['list', '--design', 'loops.ts'], { GEN_LOAD_TIMEOUT_MS: 'soon' });
    expect(expectCleanFailure(run)).toMatch(/GEN_LOAD_TIMEOUT_MS must be a whole number of milliseconds/);
  }, 150_000);

  it('one in a folder without "type": "module" is refused in one line that says what to do', async () => {
    const run = await gen(['list', '--design', 'plain/adder.ts']);
    expect(expectCleanFailure(run)).toMatch(
      /^gen: plain\/adder\.ts: loaded as CommonJS: .*plain\/package\.json.* "type": "module".* \.mts/,
    );
    expect(run.exitCode).toBe(2);
  }, 150_000);
});
