import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceLocation } from '../core/sourceLocation.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `file:line` relative to the project root (not the working directory), so the generated files
 * and the Verilator cache key are the same wherever `gen` is run from. Files outside the project
 * keep their absolute path.
 */
export function sourceText(location: SourceLocation): string {
  const path = relative(PROJECT_ROOT, location.file);
  const inside = path !== '' && !path.startsWith('..') && !isAbsolute(path);
  return `${inside ? path.split(sep).join('/') : location.file}:${location.line}`;
}
