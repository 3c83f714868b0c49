import type { IrDesign } from '../../../hw/ir/ir.ts';
import type { CycleRun, Engine, PortValues } from '../../../engines/engine.ts';
import { buildIcarus, runIcarus, type IcarusBuild } from '../../../tools/icarus.ts';
import { icarusTestbench } from '../../../engines/icarusTestbench.ts';
import { simulateExternally, type ExternalSimulator } from '../../../engines/externalSimulation.ts';

/**
 * Icarus on given Verilog in place of the design's own: the mutant of a block under the block's
 * testbench. Icarus, not Verilator, because each mutant is a new build and Icarus compiles in
 * milliseconds where Verilator takes seconds.
 */
export class MutantEngine implements Engine {
  readonly name = 'icarus' as const;
  private readonly simulator: ExternalSimulator<IcarusBuild>;

  constructor(verilog: string, cacheRoot?: string) {
    this.simulator = {
      tool: 'icarus',
      build: (design, _files, ports) =>
        buildIcarus(
          new Map([['mutant.v', verilog]]),
          icarusTestbench(design, ports),
          cacheRoot === undefined ? {} : { cacheRoot },
        ),
      run: runIcarus,
    };
  }

  async run(design: IrDesign, inputs: readonly PortValues[]): Promise<CycleRun> {
    const [run] = await simulateExternally(this.simulator, design, [inputs]);
    return run!;
  }

  runMany(design: IrDesign, streams: readonly (readonly PortValues[])[]): Promise<CycleRun[]> {
    return simulateExternally(this.simulator, design, streams);
  }
}
