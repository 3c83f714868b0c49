import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runGen } from '../../support/cli.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'gen-twins-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('gen run from a compiled copy of the checkout ($GEN_COMPILED_CHECKOUT, set for the tests)', () => {
  it('loads the framework sources a design imports by path as the compiled modules it runs itself', async () => {
    const design = join(scratch, 'probe.ts');
    const source = join(repo, 'api', 'index.ts');
    writeFileSync(
      design,
      [
        `import { defineModule, input, output } from '${source}';`,
        `console.log('api ' + import.meta.resolve('${source}'));`,
        'export const Probe = defineModule({',
        "  name: 'Probe',",
        '  defaults: {},',
        '  ports: () => ({ a: input(1), y: output(1) }),',
        '  build: (_m, io) => io.y.set(io.a),',
        '});',
      ].join('\n'),
    );
    writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }\n');
    const run = await runGen(['list', '--design', design], { cwd: scratch });
    expect(run.exitCode, run.stderr).toBe(0);
    const compiledRoot = join(process.env['GEN_COMPILED_CHECKOUT']!, 'dist');
    expect(run.stdout).toContain(`api file://${join(compiledRoot, 'api', 'index.js')}`);
    expect(run.stdout).toMatch(/Probe/);
  });
});
