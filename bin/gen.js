#!/usr/bin/env node
// The `gen` command. An installed package runs its compiled JavaScript (dist/, built by
// `npm pack`). In the framework's own checkout the TypeScript sources sit next to this folder:
// they run directly through tsx, so `npx gen …` works right after `npm ci` and never runs a
// dist/ left over from an earlier build. `$GEN_COMPILED_CHECKOUT` names a compiled copy of the
// checkout to run instead (the tests make one per run: tsx costs seconds of CPU per process); a
// design importing the checkout's sources by path then loads that copy's modules.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const source = new URL('../gen/cli/main.ts', import.meta.url);
const compiled = process.env.GEN_COMPILED_CHECKOUT;
if (existsSync(source) && compiled) {
  process.env.GEN_FRAMEWORK_SOURCES = fileURLToPath(new URL('..', import.meta.url));
  await import(pathToFileURL(join(compiled, 'dist', 'gen', 'cli', 'main.js')).href);
} else if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/gen/cli/main.js', import.meta.url).href);
}
