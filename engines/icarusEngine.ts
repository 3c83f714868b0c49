import { resolve } from 'node:path';
import type { IrDesign } from '../hw/ir/ir.ts';
import { VCD_ROOT } from '../hw/verilog/manifest.ts';
import { buildIcarus, runIcarus, type IcarusBuild } from '../tools/icarus.ts';
import { runTraced } from './engineTrace.ts';
import { ExternalEngine } from './externalEngine.ts';
import type { HarnessPorts } from './harnessStimulus.ts';
import { icarusTestbench } from './icarusTestbench.ts';

/** The testbench's file name among the design's files. */
const TESTBENCH = 'testbench.v';

/**
 * Compiles `files` with the engine testbench of `design` (cached by content under build/icarus);
 * `testbench` replaces that testbench's text.
 */
export function buildIcarusTestbench(
  design: IrDesign,
  files: ReadonlyMap<string, string>,
  ports: HarnessPorts,
  options: { readonly cacheRoot?: string; readonly testbench?: string } = {},
): Promise<IcarusBuild> {
  const { testbench, ...rest } = options;
  return buildIcarus(new Map([...files, [TESTBENCH, testbench ?? icarusTestbench(design, ports)]]), {
    root: VCD_ROOT,
    ...rest,
  });
}

/** Runs stimulus text on a compiled engine testbench and returns the results text. */
export async function runIcarusTestbench(
  build: IcarusBuild,
  stimulus: string,
  options: { readonly vcd?: string; readonly timeout?: number } = {},
): Promise<string> {
  return (await runIcarusTestbenchLogged(build, stimulus, options)).results;
}

/** runIcarusTestbench, also returning what the simulation printed (the design's check lines). */
export async function runIcarusTestbenchLogged(
  build: IcarusBuild,
  stimulus: string,
  options: { readonly vcd?: string; readonly timeout?: number } = {},
): Promise<{ results: string; log: string }> {
  const { files, stdout } = await runIcarus(build, {
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    files: { 'stimulus.txt': stimulus },
    plusargs: [
      '+stimulus=stimulus.txt',
      '+results=results.txt',
      ...(options.vcd ? [`+vcd=${resolve(options.vcd)}`] : []),
    ],
    outputs: ['results.txt'],
  });
  return { results: files['results.txt'] ?? '', log: stdout };
}

/**
 * Icarus Verilog behind the Engine interface: the emitted Verilog plus a generated testbench
 * (`iverilog`, then `vvp`), compiled once per distinct design, many streams per process.
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

  /** The testbench Verilog the design's files are compiled with. */
  protected testbenchOf(design: IrDesign, ports: HarnessPorts): string {
    return icarusTestbench(design, ports);
  }

  /** A trace is written beside `vcd` and rewritten into the engine-independent waveform (engineTrace.ts). */
  protected async execute(
    { build, design }: { readonly build: IcarusBuild; readonly design: IrDesign },
    stimulus: string,
    options: { readonly vcd?: string; readonly timeout: number; readonly internal?: boolean },
  ): Promise<{ results: string; log: string }> {
    return runTraced(this.name, design, options, (raw) =>
      runIcarusTestbenchLogged(build, stimulus, {
        timeout: options.timeout,
        ...(raw === undefined ? {} : { vcd: raw }),
      }),
    );
  }
}
