import type { IrDesign } from '../hw/ir/ir.ts';
import { buildVerilator, runVerilator, type VerilatorBuild } from '../tools/verilator.ts';
import { simulateExternally, type ExternalSimulator } from './externalSimulation.ts';
import type { CycleRun, Engine, PortValues, RunOptions } from './engine.ts';

/**
 * Verilator behind the Engine interface: the emitted Verilog plus a generated C++ harness, built
 * once per distinct design (cached under build/verilator), many streams per process.
 */
export class VerilatorEngine implements Engine {
  readonly name = 'verilator' as const;
  private readonly simulator: ExternalSimulator<VerilatorBuild>;

  /** `cacheRoot` overrides where builds are cached (tests use a private folder). */
  constructor(options: { cacheRoot?: string } = {}) {
    this.simulator = {
      tool: 'verilator',
      build: (_design, files, ports, traced) => buildVerilator(files, ports, { trace: traced, ...options }),
      run: runVerilator,
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
