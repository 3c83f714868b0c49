import { UserError } from '../common/errors.ts';
import { isModuleDefinition } from '../hw/core/index.ts';
import frameworkConfig from '../gen.config.ts';
import { findTop as findIn, type RegisteredTop } from './project/project.ts';
import type { DesignEntry } from './project/config.ts';

export type { RegisteredTop } from './project/project.ts';

/**
 * This repository's own tops, as its gen.config.ts lists them (for the report and the tests, which
 * run inside the repository). The CLI does not use this list: it loads whatever project it is run
 * in (loadProject), and this repository is one such project.
 */
const groups: Readonly<Record<string, readonly DesignEntry[]>> = Array.isArray(frameworkConfig.designs)
  ? { design: frameworkConfig.designs as readonly DesignEntry[] }
  : ((frameworkConfig.designs ?? {}) as Readonly<Record<string, readonly DesignEntry[]>>);

export const registry: readonly RegisteredTop[] = Object.entries(groups).flatMap(([kind, entries]) =>
  entries.filter(isModuleDefinition).map((definition) => ({
    name: definition.name,
    definition,
    description: definition.description ?? '',
    kind,
    file: new URL('../gen.config.ts', import.meta.url).pathname,
  })),
);

/** The top of that name among `tops` (default: this repository's), or a UserError listing the known ones. */
export function findTop(name: string, tops: readonly RegisteredTop[] = registry): RegisteredTop {
  return findIn(tops, name);
}

/** Parses `k=v` parameter overrides against a top's defaults (numbers, booleans, strings by the default's type). */
export function parseParams(top: RegisteredTop, pairs: readonly string[]): Record<string, number | boolean | string> {
  const params: Record<string, number | boolean | string> = {};
  for (const pair of pairs) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(pair);
    if (!match) throw new UserError(`--param '${pair}' is not of the form name=value`);
    const [, key, text] = match as unknown as [string, string, string];
    const fallback = top.definition.defaults[key];
    if (fallback === undefined)
      throw new UserError(
        `${top.name} has no parameter '${key}' (it has: ${Object.keys(top.definition.defaults).join(', ') || 'none'})`,
      );
    if (typeof fallback === 'number') {
      const value = Number(text);
      if (!Number.isInteger(value)) throw new UserError(`--param ${key} needs a whole number, got '${text}'`);
      params[key] = value;
    } else if (typeof fallback === 'boolean') {
      if (text !== 'true' && text !== 'false') throw new UserError(`--param ${key} needs true or false, got '${text}'`);
      params[key] = text === 'true';
    } else params[key] = text;
  }
  return params;
}
