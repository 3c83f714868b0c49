// `npm run build` (and `npm pack`, through prepack): the framework compiled to JavaScript with
// .d.ts files in dist/, the `gen init` template copied beside the compiled code.
//
// BUILD_NO_TYPECHECK=1 emits with `tsc --noCheck` (the same JavaScript and declarations, no type
// check): for the package test, whose run type-checks the whole tree in `make test` already. A
// published build never sets it, so prepack type-checks what it ships.
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { FILES_READ_BESIDE } from './compileFramework.mjs';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

// A fresh folder each time: a file deleted from the sources must not live on in the package.
rmSync(dist, { recursive: true, force: true });
const typecheck = process.env.BUILD_NO_TYPECHECK !== '1';
const compiled = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    join(root, 'tsconfig.build.json'),
    ...(typecheck ? [] : ['--noCheck']),
  ],
  { stdio: 'inherit' },
);
if (compiled.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  process.stderr.write('build: tsc -p tsconfig.build.json failed (its errors are above); no package built\n');
  process.exit(compiled.status ?? 1);
}

// tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits but keeps `./x.ts` in .d.ts files,
// which a user's compiler (without allowImportingTsExtensions) refuses or resolves to nothing.
const RELATIVE_TS = /((?:from|import)\s*\(?\s*['"])(\.\.?\/[^'"]*?)\.ts(['"])/g;
function rewriteDeclarations(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) rewriteDeclarations(path);
    else if (name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8');
      const fixed = text.replace(RELATIVE_TS, '$1$2.js$3');
      if (fixed !== text) writeFileSync(path, fixed);
    }
  }
}
rewriteDeclarations(dist);

for (const path of FILES_READ_BESIDE) cpSync(join(root, path), join(dist, path), { recursive: true });
