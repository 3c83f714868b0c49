/**
 * A design, suite or config file gen cannot use: one line naming the file, exit 2, no stack trace.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectCleanFailure } from '../../support/cli.ts';
import { genIn, makeProject, removeProject, repository } from './fixture.ts';

const root = makeProject({ config: false });
afterAll(() => removeProject(root));
const core = JSON.stringify(`${repository}/hw/core/index.ts`);
const files: Record<string, string> = {
  'syntax.ts': `import { defineModule } from ${core};\nexport const Broken = defineModule({ name: 'Broken',, });\n`,
  'empty.ts': `export const answer = 42;\n`,
  'twice.ts': `import { defineModule, input, output } from ${core};
const make = () => defineModule({ name: 'Same', defaults: {}, ports: () => ({ a: input(1), y: output(1) }), build: (m, io) => io.y.set(io.a) });
export const First = make();
export const Second = make();
`,
  'throws.ts': `throw new Error('the design file itself failed');\n`,
  'notes.txt': 'not code\n',
};
for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
mkdirSync(join(root, 'copy'));
writeFileSync(join(root, 'copy/acc.ts'), readFileSync(join(root, 'src/acc.ts'), 'utf8'));

const cases: [string, string[], RegExp][] = [
  ['a missing file', ['list', '--design', 'nowhere.ts'], /^gen: nowhere\.ts: no such file$/],
  [
    'a syntax error',
    ['verilog', '--design', 'syntax.ts', '--top', 'Broken'],
    /^gen: syntax\.ts: cannot load: line 2:\d+: .+/,
  ],
  [
    'no exported module',
    ['sim', '--design', 'empty.ts', '--top', 'X', '--vectors', 'v.jsonl'],
    /^gen: empty\.ts: exports no module definition/,
  ],
  ['two modules of one name', ['list', '--design', 'twice.ts'], /^gen: twice\.ts: exports two modules named 'Same'$/],
  [
    'a clash with another file',
    ['list', '--design', 'src/acc.ts', '--design', 'src/acc.ts', '--design', 'copy/acc.ts'],
    /^gen: copy\/acc\.ts: a second module named 'Accumulator' \(the first is in src\/acc\.ts\)$/,
  ],
  [
    'an exception at load',
    ['synth', '--design', 'throws.ts', '--top', 'X'],
    /^gen: throws\.ts: cannot load: the design file itself failed$/,
  ],
  ['not a module file', ['list', '--design', 'notes.txt'], /^gen: notes\.txt: not a module file/],
  ['a broken suite file', ['regress', '--load', 'empty.ts'], /^gen: empty\.ts: must export `suites`/],
];

describe('an unusable design file', () => {
  it.each(cases)('%s: one line naming the file, exit 2', async (_name, args, message) => {
    const run = await genIn(root, args);
    expect(expectCleanFailure(run)).toMatch(message);
    expect(run.exitCode).toBe(2);
  });

  it('a broken gen.config.ts: one line naming it, exit 2', async () => {
    writeFileSync(join(root, 'gen.config.ts'), 'export default defineConfig({ designs: [\n');
    try {
      const run = await genIn(join(root, 'src'), ['list']);
      expect(expectCleanFailure(run)).toMatch(/gen\.config\.ts: cannot load: /);
      expect(run.exitCode).toBe(2);
      writeFileSync(join(root, 'gen.config.ts'), "export default { designs: ['src/missing.ts'] };\n");
      const missing = await genIn(root, ['list']);
      expect(expectCleanFailure(missing)).toMatch(/^gen: src\/missing\.ts: no such file$/);
      expect(missing.exitCode).toBe(2);
    } finally {
      writeFileSync(join(root, 'gen.config.ts'), 'export default {};\n');
    }
  });
});
