import type { IrDesign } from '../../../hw/ir/ir.ts';
import { verilogIdentifier } from '../../../hw/ir/identifiers.ts';
import { VCD_ROOT } from '../../../hw/verilog/manifest.ts';
import { IcarusEngine } from '../../../engines/icarus/icarusEngine.ts';
import type { HarnessPorts } from '../../../engines/harness/harnessStimulus.ts';
import { memoryStartLines, testbenchFiles, verilogName } from '../../../engines/icarus/icarusTestbench.ts';

/** A `reg` of a Yosys-written module: its name and, for a memory, its number of words. */
interface DeclaredReg {
  readonly name: string;
  readonly depth?: number;
}

/** Per module of Yosys `write_verilog` text, the regs it declares (one declaration per line). */
export function declaredRegs(verilog: string): Map<string, DeclaredReg[]> {
  const modules = new Map<string, DeclaredReg[]>();
  let current: DeclaredReg[] | undefined;
  for (const line of verilog.split('\n')) {
    const header = /^\s*module\s+(\\\S+|[A-Za-z_][A-Za-z0-9_$]*)/.exec(line);
    if (header) {
      current = [];
      modules.set(header[1]!.startsWith('\\') ? header[1]!.slice(1) : header[1]!, current);
      continue;
    }
    const declaration =
      /^\s*reg\s+(?:signed\s+)?(?:\[[^\]]*\]\s*)?(\\\S+|[A-Za-z_][A-Za-z0-9_$]*)\s*(?:\[(\d+):(\d+)\])?/.exec(line);
    if (!declaration || !current) continue;
    const [, raw, high, low] = declaration;
    const name = raw!.startsWith('\\') ? raw!.slice(1) : raw!;
    current.push(high === undefined ? { name } : { name, depth: Math.abs(Number(high) - Number(low)) + 1 });
  }
  return modules;
}

/**
 * The Icarus engine on given Verilog in place of the design's own: the mutant of a block under
 * the block's testbench. Icarus, not Verilator, because each mutant is a new build and Icarus
 * compiles in milliseconds where Verilator takes seconds.
 *
 * Yosys reads the block with SYNTHESIS defined and rewrites it, so a mutant has no check blocks,
 * nor the registers only checks read (`m.past`), and a mutated register may be renamed: the
 * testbench zeroes, in every instance, the regs that the mutant's module declares.
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

  protected override testbenchOf(design: IrDesign, ports: HarnessPorts): ReadonlyMap<string, string> {
    const regs = declaredRegs(this.verilog);
    const zeroState: string[] = [];
    // The top's IR name is already its Verilog name (moduleNameFor); instance names are DSL names.
    const work = [{ module: design.top, path: `${VCD_ROOT}.${design.top}` }];
    while (work.length > 0) {
      const { module: name, path } = work.pop()!;
      const module = design.modules.find((candidate) => candidate.name === name);
      // A black box's state is its own Verilog's, as in the engines' testbench.
      if (module?.blackBox) continue;
      for (const reg of regs.get(name) ?? []) {
        const reference = `${path}.${verilogName(reg.name)}`;
        // A memory the design initializes (a ROM) starts at its contents, as in the engines' testbench.
        const memory = module?.memories.find((candidate) => candidate.name === reg.name);
        if (reg.depth === undefined) zeroState.push(`${reference} = 0;`);
        else zeroState.push(...memoryStartLines(reference, memory ?? { depth: reg.depth, width: 0 }));
      }
      for (const instance of module?.instances ?? [])
        work.push({ module: instance.module, path: `${path}.${verilogIdentifier(instance.name)}` });
    }
    return testbenchFiles({ ports, zeroState });
  }
}
