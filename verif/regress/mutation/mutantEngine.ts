import type { IrDesign } from '../../../hw/ir/ir.ts';
import { IcarusEngine } from '../../../engines/icarusEngine.ts';
import type { HarnessPorts } from '../../../engines/harnessStimulus.ts';
import { testbenchVerilog, zeroStateLines } from '../../../engines/icarusTestbench.ts';

/** The names a Verilog text declares as `reg` (plain or escaped identifiers). */
function declaredRegs(verilog: string): Set<string> {
  const names = new Set<string>();
  for (const [, list] of verilog.matchAll(/^\s*reg\b([^;]*);/gm))
    for (const [, escaped, plain] of list!.matchAll(
      /\\(\S+)\s|([A-Za-z_][A-Za-z0-9_$]*)\s*(?:\[[^\]]*\]\s*)*(?:=[^,]*)?(?:,|$)/g,
    ))
      names.add(escaped ?? plain!);
  return names;
}

/**
 * The Icarus engine on given Verilog in place of the design's own: the mutant of a block under
 * the block's testbench. Icarus, not Verilator, because each mutant is a new build and Icarus
 * compiles in milliseconds where Verilator takes seconds.
 *
 * Yosys reads the block with SYNTHESIS defined, so its mutants have no check blocks, nor the
 * registers only checks read (`m.past`); the testbench zeroes only the registers the mutant has.
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

  protected override testbenchOf(design: IrDesign, ports: HarnessPorts): string {
    const regs = declaredRegs(this.verilog);
    // A zeroing line ends in the register's (or memory's) name: `TOP.top.a.name = 0;`, `….name[tb_i] = 0;`.
    const zeroState = zeroStateLines(design).filter((line) => {
      const name = /\.(\\\S+ |[A-Za-z_][A-Za-z0-9_$]*)(?:\[tb_i\])? = 0;$/.exec(line)?.[1];
      return name === undefined || regs.has(name.startsWith('\\') ? name.slice(1, -1) : name);
    });
    return testbenchVerilog({ ports, zeroState });
  }
}
