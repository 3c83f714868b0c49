import type { IrDesign } from '../hw/ir/ir.ts';
import { buildIcarus, runIcarus, type IcarusBuild } from '../tools/icarus.ts';
import { icarusTestbench } from './icarusTestbench.ts';
import { simulateExternally, type ExternalSimulator } from './externalSimulation.ts';
import type { CycleRun, Engine, PortValues, RunOptions } from './engine.ts';

/**
 * Icarus Verilog behind the Engine interface: the emitted Verilog plus a generated testbench
 * (`iverilog -g2005`, then `vvp`), compiled once per distinct design, many streams per process.
 */
export class IcarusEngine implements Engine {
  readonly name = 'icarus' as const;
  private readonly simulator: ExternalSimulator<IcarusBuild>;

  /** `cacheRoot` overrides where compiled testbenches are cached. */
  constructor(options: { cacheRoot?: string } = {}) {
    this.simulator = {
      tool: 'icarus',
      build: (design, files, ports) => buildIcarus(files, icarusTestbench(design, ports), options),
      run: runIcarus,
    };
  }

  async run(design: IrDesign, inputs: readonly PortValues[], options: RunOptions = {}): Promise<CycleRun> {
    const [run] = await simulateExternally(this.simulator, design, [inputs], options.vcd);
    return run!;
  }

  runMany(design: IrDesign, streams: readonly (readonly PortValues[])[]): Promise<CycleRun[]> {
    return simulateExternally(this.simulator, design, streams);
  }
}
