import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const plugin = new URL('../../coruscant/plugin.ts', import.meta.url).pathname;

/**
 * Makes `directory` a project that enables the Coruscant plugin, as a user's gen.config.ts would:
 * its commands (`gen mma`, `spmm`, …) exist only in such a project. (.mts: the folder has no
 * package.json to make .ts files ES modules.)
 */
export function enableShowcase(directory: string): void {
  writeFileSync(
    join(directory, 'gen.config.mts'),
    `import { coruscant } from ${JSON.stringify(plugin)};\nexport default { plugins: [coruscant] };\n`,
  );
}
