#!/usr/bin/env node
// The `gen` command. An installed package runs its compiled JavaScript (dist/, built by
// `npm pack`). In the framework's own checkout the TypeScript sources sit next to this folder:
// they run directly through tsx, so `npx gen …` works right after `npm ci` and never runs a
// dist/ left over from an earlier build.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const source = new URL('../gen/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/gen/cli/main.js', import.meta.url).href);
}
