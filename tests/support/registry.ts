import { isModuleDefinition } from '../../hw/core/index.ts';
import frameworkConfig from '../../gen.config.ts';
import { findTop as findIn, type RegisteredTop } from '../../gen/project/project.ts';
import type { DesignEntry } from '../../gen/project/config.ts';

export type { RegisteredTop } from '../../gen/project/project.ts';

/**
 * This repository's own tops, as its gen.config.ts and its plugins list them (for the tests, which
 * run inside the repository). The CLI does not use this list: it loads whatever project it is run
 * in (loadProject), and this repository is one such project.
 */
const groups: readonly (readonly [string, readonly DesignEntry[]])[] = [
  ...Object.entries(
    Array.isArray(frameworkConfig.designs)
      ? { design: frameworkConfig.designs as readonly DesignEntry[] }
      : ((frameworkConfig.designs ?? {}) as Readonly<Record<string, readonly DesignEntry[]>>),
  ),
  ...(frameworkConfig.plugins ?? []).flatMap((plugin) => Object.entries(plugin.designs ?? {})),
];

export const registry: readonly RegisteredTop[] = groups.flatMap(([kind, entries]) =>
  entries.filter(isModuleDefinition).map((definition) => ({
    name: definition.name,
    definition,
    description: definition.description ?? '',
    kind,
    file: new URL('../../gen.config.ts', import.meta.url).pathname,
  })),
);

/** The top of that name among `tops` (default: this repository's), or a UserError listing the known ones. */
export function findTop(name: string, tops: readonly RegisteredTop[] = registry): RegisteredTop {
  return findIn(tops, name);
}

export { parseParams } from '../../gen/project/project.ts';
