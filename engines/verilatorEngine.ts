import type { IrDesign } from '../hw/ir/ir.ts';
import {
  buildVerilator,
  runVerilatorLogged,
  type VerilatorBuild,
  type VerilatorBuildOptions,
} from '../tools/verilator.ts';
import { ExternalEngine } from './externalEngine.ts';
import type { HarnessPorts } from './harnessStimulus.ts';
import { verilatorHarness } from './verilatorHarness.ts';

/** Verilates `files` with the generated C++ harness for `ports` (cached by content under build/verilator). */
export function buildVerilatorHarness(
  files: ReadonlyMap<string, string>,
  ports: HarnessPorts,
  options: VerilatorBuildOptions = {},
): Promise<VerilatorBuild> {
  return buildVerilator(files, { top: ports.top, source: verilatorHarness(ports) }, options);
}

/**
 * Verilator behind the Engine interface: the emitted Verilog plus a generated C++ harness, built
 * once per distinct design (cached under build/verilator), many streams per process.
 */
export class VerilatorEngine extends ExternalEngine<VerilatorBuild> {
  readonly name = 'verilator' as const;
  /** Verilator ran the MmaBench at 18.5 k cycles/s (0.6 ns per cell-cycle): 5 µs leaves room for any load. */
  protected readonly cellCycleMicros = 5;

  /** `cacheRoot` overrides where builds are cached (tests use a private folder). */
  constructor(private readonly options: { readonly cacheRoot?: string } = {}) {
    super();
  }

  protected build(
    _design: IrDesign,
    files: ReadonlyMap<string, string>,
    ports: HarnessPorts,
    traced: boolean,
  ): Promise<VerilatorBuild> {
    return buildVerilatorHarness(files, ports, { trace: traced, ...this.options });
  }

  protected async execute(
    build: VerilatorBuild,
    stimulus: string,
    options: { readonly vcd?: string; readonly timeout: number },
  ): Promise<{ results: string; log: string }> {
    const { results, stdout } = await runVerilatorLogged(build, stimulus, options);
    return { results, log: stdout };
  }
}
