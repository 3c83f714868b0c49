import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The names a project's config file may have, in the order they are looked for in one folder. */
export const CONFIG_FILE_NAMES = ['gen.config.ts', 'gen.config.mts', 'gen.config.js', 'gen.config.mjs'] as const;

/** The nearest config file at or above `start` (the working directory by default), if any. */
export function findConfigFile(start: string = process.cwd()): string | undefined {
  for (let folder = resolve(start); ; folder = dirname(folder)) {
    for (const name of CONFIG_FILE_NAMES) {
      const file = join(folder, name);
      if (existsSync(file)) return file;
    }
    if (dirname(folder) === folder) return undefined;
  }
}

let root: string | undefined;

/**
 * The user's project root: the folder of the nearest config file (see findConfigFile), else the
 * working directory. Generated files cite sources relative to it and build caches live in it, so
 * neither depends on where the project sits or where `gen` was started inside it.
 */
export function projectRoot(): string {
  root ??= dirname(findConfigFile() ?? join(process.cwd(), CONFIG_FILE_NAMES[0]));
  return root;
}

/** Fixes the project root (the CLI does, once it has found the config). */
export function setProjectRoot(folder: string): void {
  root = resolve(folder);
}
