import { describe, expect, it } from 'vitest';
import { elaborate } from '../../../../hw/ir/elaborate.ts';
import type { ModuleDefinition } from '../../../../hw/core/index.ts';
import {
  AdderChain,
  BitmapDecoder,
  BitmapThreadSlice,
  DensePointerIncrementer,
  LaneDetector,
  RegisterIndexEmitter,
} from '../../../../coruscant/designs/decoder/index.ts';
import { emitVerilog } from '../../../../hw/verilog/emit.ts';
import { checkWithYosys, lintWithVerilator } from '../../../../tools/lint.ts';

const blocks: ModuleDefinition[] = [
  LaneDetector,
  AdderChain,
  RegisterIndexEmitter,
  DensePointerIncrementer,
  BitmapThreadSlice,
  BitmapDecoder,
];

describe('generated Verilog of the decoder blocks', () => {
  it.each(blocks.map((definition) => [definition.name, definition] as const))(
    '%s as a top is verilator --lint-only -Wall clean',
    async (_name, definition) => {
      const design = elaborate(definition);
      expect(await lintWithVerilator(emitVerilog(design), design.top)).toEqual([]);
    },
  );

  // `check -assert` runs over every module below the top, so the decoder's hierarchy covers all
  // blocks. The installed yosys: the WebAssembly one takes ~10 s on the 32-thread decoder.
  it.each([{}, { slots: 8, tileLength: 128, threads: 3 }])(
    'BitmapDecoder %o and every block below it are yosys check -assert clean',
    async (params) => {
      const design = elaborate(BitmapDecoder, params);
      expect(design.modules.map((module) => module.definition).sort()).toEqual(
        blocks.map((definition) => definition.name).sort(),
      );
      expect(await checkWithYosys(emitVerilog(design), design.top, { system: true })).toEqual([]);
    },
  );

  it('is verilator clean when reshaped (8 slots, 128-element tiles, 3 threads)', async () => {
    const design = elaborate(BitmapDecoder, { slots: 8, tileLength: 128, threads: 3 });
    expect(await lintWithVerilator(emitVerilog(design), design.top)).toEqual([]);
  });
});
