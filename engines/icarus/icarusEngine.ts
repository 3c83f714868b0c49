import { basename, dirname, resolve } from 'node:path';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { VCD_ROOT } from '../../hw/verilog/manifest.ts';
import { buildIcarus, type IcarusBuild } from '../../tools/icarus.ts';
import type { HarnessLaunch } from '../harness/harnessProcess.ts';
import { ExternalEngine } from '../harness/externalEngine.ts';
import type { HarnessPorts } from '../harness/harnessStimulus.ts';
import { icarusTestbench } from './icarusTestbench.ts';

/**
 * Compiles `files` with the engine testbench of `design` (cached by content under build/icarus);
 * `testbench` replaces that testbench's files (icarusTestbench.ts, testbenchFiles).
 */
export function buildIcarusTestbench(
  design: IrDesign,
  files: ReadonlyMap<string, string>,
  ports: HarnessPorts,
  options: { readonly cacheRoot?: string; readonly testbench?: ReadonlyMap<string, string> } = {},
): Promise<IcarusBuild> {
  const { testbench, ...rest } = options;
  return buildIcarus(new Map([...files, ...(testbench ?? icarusTestbench(design, ports))]), {
    root: VCD_ROOT,
    ...rest,
  });
}

/**
 * Icarus Verilog behind the Engine interface: the emitted Verilog plus the static testbench with the
 * design's generated port table
 * (`iverilog`, then `vvp`), compiled once per distinct design, many streams per process, or one
 * session per process.
 */
export class IcarusEngine extends ExternalEngine<{ readonly build: IcarusBuild; readonly design: IrDesign }> {
  readonly name = 'icarus' as const;
  /** Icarus ran the MmaBench at a few cycles per second (about 3.5 µs per cell-cycle). */
  protected readonly cellCycleMicros = 50;

  /** `cacheRoot` overrides where compiled testbenches are cached. */
  constructor(private readonly options: { readonly cacheRoot?: string } = {}) {
    super();
  }

  protected async build(
    design: IrDesign,
    files: ReadonlyMap<string, string>,
    ports: HarnessPorts,
  ): Promise<{ build: IcarusBuild; design: IrDesign }> {
    const testbench = this.testbenchOf(design, ports);
    return { build: await buildIcarusTestbench(design, files, ports, { ...this.options, testbench }), design };
  }

  /** The testbench files the design's files are compiled with. */
  protected testbenchOf(design: IrDesign, ports: HarnessPorts): ReadonlyMap<string, string> {
    return icarusTestbench(design, ports);
  }

  /**
   * `vvp` on the compiled testbench; the raw trace goes to `vcd` (engineTrace.ts rewrites it into
   * the engine-independent waveform), named relative to vvp's working folder, the trace's: its
   * $dumpfile takes only printable ASCII, which the folder's path need not be (the name is).
   */
  protected launch({ build }: { readonly build: IcarusBuild }, vcd: string | undefined): HarnessLaunch {
    // -n: a $stop would otherwise drop into the interactive prompt and hang.
    return {
      program: 'vvp',
      args: ['-n', resolve(build.program), ...(vcd ? [`+vcd=${basename(vcd)}`] : [])],
      name: 'vvp',
      pipedInput: true,
      ...(vcd ? { cwd: dirname(resolve(vcd)) } : {}),
    };
  }
}
