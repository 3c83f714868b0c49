import { cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { compileFramework, FILES_READ_BESIDE } from '../../scripts/compileFramework.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
/** What gen loads in this repository: the framework, the showcase and its GPU model, the config. */
const FOLDERS = [
  'api',
  'common',
  'tools',
  'waves',
  'hw',
  'engines',
  'verif',
  'synth',
  'gen',
  'coruscant',
  'gpu',
  'bench',
];
/** Packages of hundreds of small modules, loaded as a few bundled chunks instead. */
const BUNDLED = ['echarts/core', 'echarts/charts', 'echarts/components', 'echarts/renderers', 'execa'];

/**
 * Vitest's global set-up, after privateTemp.ts: the checkout compiled once per run into the run's
 * temporary folder, laid out as an installed package (dist/, package.json, the checkout's
 * node_modules beside them), and named in `$GEN_COMPILED_CHECKOUT`, so every `node bin/gen.js`
 * the tests spawn runs it (bin/gen.js): no tsx, whose loader costs seconds of CPU per process.
 */
export default async function compiledGen(): Promise<void> {
  const tree = join(process.env['TMPDIR']!, 'compiled-gen');
  const dist = join(tree, 'dist');
  await compileFramework({
    root: ROOT,
    folders: [...FOLDERS, 'gen.config.ts'],
    outDir: dist,
    skip: ['gen/init/template', 'gpu/probes'],
    // The testbench library finds a fork's site in the formatted stack by its own folder: the frames
    // a fork passes through must name the compiled files, as an installed package's do. Designs
    // under verif/ (formal examples, fuzz designs) stay mapped: their lines are named in messages.
    unmapped: ['verif/processes', 'verif/agents', 'verif/testbench.ts'],
    bundled: BUNDLED,
  });
  // Files the code reads beside itself: the framework's, and the examples' data and Verilog.
  for (const folder of [...FILES_READ_BESIDE, 'hw/examples/data', 'hw/examples/verilog'])
    cpSync(join(ROOT, folder), join(dist, folder), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(tree, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  process.env['GEN_COMPILED_CHECKOUT'] = tree;
}
