/** docs/tensor-core.md's port tables match the elaborated ports (names, widths, directions). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { topModule } from '../../../../hw/ir/ir.ts';
import type { ModuleDefinition } from '../../../../hw/core/index.ts';
import { MmaUnit } from '../../../../coruscant/designs/tensor/mmaUnit.ts';
import { ThreadGroup } from '../../../../coruscant/designs/tensor/threadGroup.ts';

const doc = readFileSync(new URL('../../../../docs/tensor-core.md', import.meta.url), 'utf8');
const IMPLICIT = new Set(['clk', 'reset']);

/** The port-table rows of a section: each backticked name as a pattern (`<x>` = any number). */
function documentedPorts(
  heading: string,
): { name: string; pattern: RegExp; width: number; direction: 'input' | 'output' }[] {
  const section = doc.split(/^## /m).find((part) => part.startsWith(heading));
  if (!section) throw new Error(`docs/tensor-core.md has no section '${heading}'`);
  return [...section.matchAll(/^\|([^|]+)\|\s*(\d+)\s*\|\s*(in|out)\s*\|/gm)].flatMap(([, names, width, direction]) =>
    [...names!.matchAll(/`([^`]+)`/g)].map(([, name]) => ({
      name: name!,
      pattern: new RegExp(`^${name!.replace(/<[a-z]+>/g, '\\d+')}$`),
      width: Number(width),
      direction: direction === 'in' ? ('input' as const) : ('output' as const),
    })),
  );
}

describe('docs/tensor-core.md port tables', () => {
  it.each([
    ['Lane groups', ThreadGroup],
    ['MmaUnit', MmaUnit],
  ] as [string, unknown][])(
    '%s: every port documented with its width and direction, no stale rows',
    { timeout: 120_000 },
    (heading, definition) => {
      const rows = documentedPorts(heading);
      const ports = topModule(elaborate(definition as ModuleDefinition)).ports.filter(
        (port) => !IMPLICIT.has(port.name),
      );
      for (const port of ports) {
        const row = rows.find((candidate) => candidate.pattern.test(port.name));
        expect(row, `${port.name} is not in the table`).toBeDefined();
        expect({ port: port.name, width: row!.width, direction: row!.direction }).toEqual({
          port: port.name,
          width: port.width,
          direction: port.direction,
        });
      }
      for (const row of rows)
        expect(
          ports.some((port) => row.pattern.test(port.name)),
          `row ${row.name} matches no port`,
        ).toBe(true);
    },
  );
});
