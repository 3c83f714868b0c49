import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import { topModule } from '../../../../hw/ir/ir.ts';
import type { ModuleDefinition } from '../../../../hw/core/index.ts';
import {
  AdderChain,
  BitmapDecoder,
  BitmapThreadSlice,
  DensePointerIncrementer,
  LaneDetector,
  RegisterIndexEmitter,
} from '../../../../coruscant/designs/decoder/index.ts';

const doc = readFileSync(new URL('../../../../docs/decoder.md', import.meta.url), 'utf8');
const IMPLICIT = new Set(['clk', 'reset']);

/** The rows of a block's port table: the name as a pattern (`<t>` = any number), width, direction. */
function documentedPorts(
  block: string,
): { pattern: RegExp; name: string; width: number; direction: 'input' | 'output' }[] {
  const section = doc.split(/^### /m).find((part) => part.startsWith(`${block} `));
  if (!section) throw new Error(`docs/decoder.md has no section for ${block}`);
  return [...section.matchAll(/^\|\s*`([^`]+)`\s*\|\s*(\d+)\s*\|\s*(in|out)\s*\|/gm)].map(
    ([, name, width, direction]) => ({
      name: name!,
      pattern: new RegExp(`^${name!.replace(/<[a-z]+>/g, '\\d+')}$`),
      width: Number(width),
      direction: direction === 'in' ? 'input' : 'output',
    }),
  );
}

describe('docs/decoder.md port tables', () => {
  const blocks: ModuleDefinition[] = [
    LaneDetector,
    AdderChain,
    RegisterIndexEmitter,
    DensePointerIncrementer,
    BitmapThreadSlice,
    BitmapDecoder,
  ];
  it.each(blocks.map((definition) => [definition.name, definition] as const))(
    '%s: every port documented with its width and direction, no stale rows',
    (name, definition) => {
      const rows = documentedPorts(name);
      const ports = topModule(elaborate(definition)).ports.filter((port) => !IMPLICIT.has(port.name));
      for (const port of ports) {
        const row = rows.find((candidate) => candidate.pattern.test(port.name));
        expect(row, `${name}.${port.name} is not in the table`).toBeDefined();
        expect({ port: port.name, width: row!.width, direction: row!.direction }).toEqual({
          port: port.name,
          width: port.width,
          direction: port.direction,
        });
      }
      for (const row of rows)
        expect(
          ports.some((port) => row.pattern.test(port.name)),
          `row ${row.name} matches no port of ${name}`,
        ).toBe(true);
    },
  );
});
