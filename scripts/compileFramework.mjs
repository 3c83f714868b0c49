// The framework's TypeScript sources to plain JavaScript, file by file, with esbuild: the same
// tree the sources form, every relative `./x.ts` import rewritten to `./x.js`. Each source file
// stays one module of its own (its `import.meta.url` is its place in the tree, which the DSL's
// source locations rely on), so any mix of compiled files loads one instance of each. Seconds
// for the whole tree, where tsc takes minutes.
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

/**
 * Files the framework reads beside its compiled modules (through `import.meta.url`): the `gen init`
 * template and the harnesses' static sources. Every compiled copy (the package's dist/, the tests'
 * compiled checkout) copies them.
 */
export const FILES_READ_BESIDE = ['gen/init/template', 'engines/verilator/harness.cpp', 'engines/icarus/testbench.v'];

const SOURCE = /\.ts$/;
const DECLARATION = /\.d\.ts$/;
/** Where the bundled packages go, inside the output folder. */
const VENDOR = 'vendor';

/** The .ts files (no .d.ts) under `folder`, skipping the folders in `skip` (absolute). */
function sourceFiles(folder, skip) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return skip.has(path) ? [] : sourceFiles(path, skip);
    return SOURCE.test(entry.name) && !DECLARATION.test(entry.name) ? [path] : [];
  });
}

const vendorFile = (specifier) => `${VENDOR}/${specifier.replaceAll('/', '-')}`;

/**
 * Every import stays an import: a relative one renamed to the compiled file, a package left to
 * Node, except the `bundled` specifiers, which name their file among the bundled packages.
 */
function keepImports(root, outDir, bundled) {
  return {
    name: 'keep-imports',
    setup(esbuild) {
      esbuild.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (!bundled.includes(args.path)) return { path: args.path.replace(/\.ts$/, '.js'), external: true };
        const compiledFolder = join(outDir, relative(root, dirname(args.importer)));
        const target = relative(compiledFolder, join(outDir, vendorFile(args.path)));
        return { path: `${target.startsWith('.') ? '' : './'}${target}.js`, external: true };
      });
    },
  };
}

/**
 * Compiles `folders` (relative to `root`; a .ts file may stand for itself) into `outDir`, keeping
 * their layout, each file with an inline source map back to its source except those under the
 * `unmapped` folders (their stack frames name the compiled file). `bundled` lists package
 * specifiers (e.g. 'echarts/core') of pure JavaScript made of hundreds of small modules: they are
 * bundled, with what they import, into a few shared chunks under outDir/vendor/.
 */
export async function compileFramework({ root, folders, outDir, skip = [], unmapped = [], bundled = [] }) {
  const skipped = new Set(skip.map((folder) => join(root, folder)));
  const files = folders.flatMap((folder) =>
    SOURCE.test(folder) ? [join(root, folder)] : sourceFiles(join(root, folder), skipped),
  );
  const common = { format: 'esm', platform: 'node', target: 'node20', logLevel: 'error', absWorkingDir: root };
  const isUnmapped = (file) => unmapped.some((folder) => !relative(join(root, folder), file).startsWith('..'));
  const sources = {
    ...common,
    outdir: outDir,
    outbase: root,
    bundle: true,
    plugins: [keepImports(root, outDir, bundled)],
  };
  await Promise.all([
    build({ ...sources, entryPoints: files.filter((file) => !isUnmapped(file)), sourcemap: 'inline' }),
    build({ ...sources, entryPoints: files.filter(isUnmapped) }),
    bundled.length === 0
      ? undefined
      : build({
          ...common,
          entryPoints: bundled.map((specifier) => ({ in: specifier, out: vendorFile(specifier) })),
          outdir: outDir,
          bundle: true,
          splitting: true,
          chunkNames: `${VENDOR}/[name]-[hash]`,
          // CommonJS inside them (execa's cross-spawn) requires Node's built-in modules.
          banner: {
            js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
          },
        }),
  ]);
}
