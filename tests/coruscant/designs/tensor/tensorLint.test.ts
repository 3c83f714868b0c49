/**
 * The Verilog of every block above the lane is `verilator --lint-only -Wall` and
 * `yosys check -assert` clean. MmaBench's hierarchy holds them all (MmaUnit, TensorCore, Octet,
 * ThreadGroup, OperandRegisterFile, the decoder and the lanes), and both tools check every module
 * below the top, so one elaboration covers every block.
 */
import { describe, expect, it } from 'vitest';
import type { ModuleDefinition } from '../../../../hw/core/index.ts';
import { ThreadGroup } from '../../../../coruscant/designs/tensor/threadGroup.ts';
import { Octet } from '../../../../coruscant/designs/tensor/octet.ts';
import { TensorCore } from '../../../../coruscant/designs/tensor/tensorCore.ts';
import { MmaUnit } from '../../../../coruscant/designs/tensor/mmaUnit.ts';
import { OperandRegisterFile } from '../../../../coruscant/designs/tensor/operandRegisterFile.ts';
import { emitVerilog } from '../../../../hw/verilog/emit.ts';
import { checkWithYosys, lintWithVerilator } from '../../../../tools/lint.ts';
import { mmaBenchDesign } from '../../../../coruscant/mma/runMmas.ts';

const blocks: ModuleDefinition[] = [ThreadGroup, Octet, TensorCore, MmaUnit, OperandRegisterFile];

describe('generated Verilog of the tensor-core blocks', () => {
  it('MmaBench and every module below it are verilator --lint-only -Wall clean', { timeout: 300_000 }, async () => {
    const design = mmaBenchDesign();
    const names = design.modules.map((module) => module.definition);
    for (const block of blocks) expect(names).toContain(block.name);
    expect(await lintWithVerilator(emitVerilog(design), design.top)).toEqual([]);
  });

  it('MmaBench and every module below it are yosys check -assert clean', { timeout: 600_000 }, async () => {
    const design = mmaBenchDesign();
    expect(await checkWithYosys(emitVerilog(design), design.top, { system: true })).toEqual([]);
  });
});
