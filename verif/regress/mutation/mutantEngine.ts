import type { IrDesign } from '../../../hw/ir/ir.ts';
import { IcarusEngine } from '../../../engines/icarusEngine.ts';

/**
 * The Icarus engine on given Verilog in place of the design's own: the mutant of a block under
 * the block's testbench. Icarus, not Verilator, because each mutant is a new build and Icarus
 * compiles in milliseconds where Verilator takes seconds.
 */
export class MutantEngine extends IcarusEngine {
  constructor(
    private readonly verilog: string,
    cacheRoot?: string,
  ) {
    super(cacheRoot === undefined ? {} : { cacheRoot });
  }

  protected override verilogOf(_design: IrDesign): ReadonlyMap<string, string> {
    return new Map([['mutant.v', this.verilog]]);
  }
}
