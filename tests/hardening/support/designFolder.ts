import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const repository = new URL('../../..', import.meta.url).pathname;

/** The DSL's import path for a design file outside the repository (as JSON text, ready to paste). */
export const CORE_IMPORT = JSON.stringify(join(repository, 'hw/core/index.ts'));

/**
 * A user's folder of design files in the system temporary folder (an ES module package, as
 * `gen init` makes), each importing the DSL by absolute path. `remove()` deletes it.
 */
export function designFolder(files: Readonly<Record<string, string>>): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'hardening-designs-'));
  const all = { 'package.json': JSON.stringify({ type: 'module', private: true }), ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
