import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HdlError, type ModuleDefinition } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';

/** The HdlError elaborating `definition` throws (any other error is rethrown; none at all fails). */
export function caughtHdlError(definition: ModuleDefinition): HdlError {
  try {
    elaborate(definition);
  } catch (error) {
    if (error instanceof HdlError) return error;
    throw error;
  }
  throw new Error('no error');
}

/**
 * The 1-based line of a test file that ends in `// <marker>`: where an error must point. Pass the
 * test's `import.meta.url`.
 */
export function markerLines(fileUrl: string): (marker: string) => number {
  const source = readFileSync(fileURLToPath(fileUrl), 'utf8').split('\n');
  return (marker) => source.findIndex((line) => line.endsWith(`// ${marker}`)) + 1;
}
