/**
 * Module definitions are recognized by their registered-symbol brand, so a definition made by a
 * second copy of the framework (another install, a namespaced loader) is still a top: elaborated,
 * emitted, and citing its real file.
 */
import { describe, expect, it } from 'vitest';
import { tsImport } from 'tsx/esm/api';
import { defineModule, input, isModuleDefinition, output, type ModuleDefinition } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';

type Core = typeof import('../../../hw/core/index.ts');

describe('module definition brand', () => {
  it('recognizes definitions of another copy of hw/core, and that copy recognizes ours', async () => {
    const other = (await tsImport('../../../hw/core/index.ts', import.meta.url)) as Core;
    expect(other.defineModule).not.toBe(defineModule); // really a second copy
    const theirs = other.defineModule({
      name: 'Theirs',
      defaults: { width: 3 },
      ports: (p) => ({ a: other.input(p.width), y: other.output(p.width) }),
      build: (_m, io) => io.y.set(io.a),
    });
    const ours = defineModule({
      name: 'Ours',
      defaults: {},
      ports: () => ({ a: input(1), y: output(1) }),
      build: (_m, io) => io.y.set(io.a),
    });
    expect(isModuleDefinition(theirs)).toBe(true);
    expect(other.isModuleDefinition(ours)).toBe(true);
    for (const value of [null, {}, { name: 'X' }, Symbol.for('coruscant-hdl.moduleDefinition'), () => 1])
      expect(isModuleDefinition(value)).toBe(false);
    // Typed without a cast: a parameterized definition is a ModuleDefinition.
    const registered: ModuleDefinition[] = [ours, theirs];
    expect(registered.map((definition) => definition.name)).toEqual(['Ours', 'Theirs']);
    const verilog = [...emitVerilog(elaborate(theirs)).values()].join('\n');
    expect(verilog).toMatch(/module Theirs/);
    expect(verilog).toMatch(/Generated from Theirs \(tests\/gen\/project\/brand\.test\.ts:\d+\)/);
  });
});
