import { isAbsolute, relative, sep } from 'node:path';
import { projectRoot } from '../../common/projectRoot.ts';
import type { SourceLocation } from '../core/sourceLocation.ts';

/**
 * `file:line` relative to the user's project root (the folder of its gen.config.ts, see
 * common/projectRoot.ts; not the working directory and not the framework's install folder), so
 * the generated files and the Verilator cache key are the same wherever the project sits and
 * wherever in it `gen` is run from. Files outside the project keep their absolute path.
 */
export function sourceText(location: SourceLocation): string {
  const path = relative(projectRoot(), location.file);
  const inside = path !== '' && !path.startsWith('..') && !isAbsolute(path);
  return `${inside ? path.split(sep).join('/') : location.file}:${location.line}`;
}
