/**
 * A user's project in a temporary folder outside the repository: two designs (an accumulator and
 * a combinational adder), a golden model and regression suite, a suite file with a planted bug,
 * and optionally a gen.config.ts. It imports the framework by absolute path (the packed and
 * installed case is the package test's); fast-check is linked in as a project dependency would be.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runGen } from '../../support/cli.ts';

export const repository = new URL('../../..', import.meta.url).pathname.replace(/\/$/, '');
const framework = (path: string): string => JSON.stringify(`${repository}/${path}`);

export const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'my-hardware', private: true, type: 'module' }),
  'src/acc.ts': `import { defineModule, input, output } from ${framework('hw/core/index.ts')};

/** Adds its input to a running sum each cycle it is enabled. */
export const Accumulator = defineModule({
  name: 'Accumulator',
  description: 'running sum of the input',
  defaults: { width: 8 },
  ports: (p) => ({ enable: input(1), value: input(p.width), sum: output(p.width) }),
  build(m, io, p) {
    const total = m.reg('total', p.width, { reset: 0 });
    m.when(io.enable, () => total.set(total.add(io.value)));
    io.sum.set(total);
  },
});

export const Adder = defineModule({
  name: 'Adder',
  defaults: { width: 4 },
  ports: (p) => ({ a: input(p.width), b: input(p.width), y: output(p.width) }),
  build(m, io, p) {
    io.y.set(io.a.add(io.b).trunc(p.width));
  },
});
`,
  'verif/golden.ts': `/** The golden accumulator: per cycle the sum before this cycle's input (registered output). */
export function accumulate(inputs: readonly { enable: boolean; value: number }[], width: number): number[] {
  const mask = (1 << width) - 1;
  let total = 0;
  return inputs.map((input) => {
    const before = total;
    if (input.enable) total = (total + input.value) & mask;
    return before;
  });
}
`,
  'verif/accSuite.ts': `import fc from 'fast-check';
import { elaborate } from ${framework('hw/ir/elaborate.ts')};
import { defineSuite, once } from ${framework('gen/project/config.ts')};
import { Accumulator } from '../src/acc.ts';
import { accumulate } from './golden.ts';

const step = fc.record({ enable: fc.boolean(), value: fc.integer({ min: 0, max: 255 }) });

/** The accumulator's suite on any design with its ports (the buggy copy reuses it). */
export const accumulatorSuite = (name: string, design: () => ReturnType<typeof elaborate>) =>
  defineSuite({
    name,
    arbitrary: fc.array(step, { minLength: 1, maxLength: 12 }),
    design,
    vectors: (steps) => ({
      stimulus: [
        { reset: 1n, enable: 0n, value: 0n },
        ...steps.map((s) => ({ reset: 0n, enable: s.enable ? 1n : 0n, value: BigInt(s.value) })),
      ],
      expected: [{}, ...accumulate(steps, 8).map((sum) => ({ sum: BigInt(sum) }))],
    }),
  });

export const suites = [accumulatorSuite('Accumulator', once(() => elaborate(Accumulator)))];
`,
  'verif/buggy.ts': `import { defineModule, input, output, mux, constant } from ${framework('hw/core/index.ts')};
import { elaborate } from ${framework('hw/ir/elaborate.ts')};
import { once } from ${framework('gen/project/config.ts')};
import { accumulatorSuite } from './accSuite.ts';

/** The accumulator with a planted bug: adding more than 200 adds one more. */
export const BuggyAccumulator = defineModule({
  name: 'BuggyAccumulator',
  defaults: {},
  ports: () => ({ enable: input(1), value: input(8), sum: output(8) }),
  build(m, io) {
    const total = m.reg('total', 8, { reset: 0 });
    const addend = mux(io.value.gt(constant(200, 8)), io.value.add(constant(1, 8)).trunc(8), io.value);
    m.when(io.enable, () => total.set(total.add(addend)));
    io.sum.set(total);
  },
});

export const suites = [accumulatorSuite('BuggyAccumulator', once(() => elaborate(BuggyAccumulator)))];
`,
  'vectors.jsonl': [
    '{"in":{"reset":1}}',
    '{"in":{"reset":0,"enable":1,"value":5}}',
    '{"in":{"value":7}}',
    '{"in":{"enable":0}}',
    '{"in":{},"expect":{"sum":"12"}}',
  ].join('\n'),
};

export const CONFIG = `import { defineConfig } from ${framework('gen/project/config.ts')};

export default defineConfig({
  designs: { mine: ['src/acc.ts'] },
  suites: ['verif/accSuite.ts'],
  defaults: { out: 'build-out' },
});
`;

/** Writes the project (with gen.config.ts when `config`: CONFIG, or the text given) into a new temporary folder. */
export function makeProject(options: { config: boolean | string; root?: string }): string {
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'gen-user-'));
  const config = options.config === true ? CONFIG : options.config;
  const files = { ...FILES, ...(config === false ? {} : { 'gen.config.ts': config }) };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text.endsWith('\n') ? text : `${text}\n`);
  }
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  symlinkSync(join(repository, 'node_modules', 'fast-check'), join(root, 'node_modules', 'fast-check'));
  return root;
}

export const removeProject = (root: string): void => rmSync(root, { recursive: true, force: true });

/** `gen …` run in the project, with `env` added to the environment. */
export const genIn = (root: string, args: readonly string[], env: Readonly<Record<string, string>> = {}) =>
  runGen(args, { cwd: root, env });
