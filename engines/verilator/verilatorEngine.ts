import type { IrDesign } from '../../hw/ir/ir.ts';
import { buildVerilator, type VerilatorBuild, type VerilatorBuildOptions } from '../../tools/verilator.ts';
import { ExternalEngine } from '../harness/externalEngine.ts';
import type { BatchFiles } from '../harness/batchFiles.ts';
import type { HarnessLaunch } from '../harness/harnessProcess.ts';
import type { HarnessPorts } from '../harness/harnessStimulus.ts';
import { verilatorHarness } from './verilatorHarness.ts';

/** Verilates `files` with the C++ harness and its port table for `ports` (cached by content under build/verilator). */
export function buildVerilatorHarness(
  files: ReadonlyMap<string, string>,
  ports: HarnessPorts,
  options: VerilatorBuildOptions = {},
): Promise<VerilatorBuild> {
  return buildVerilator(files, verilatorHarness(ports), options);
}

/**
 * Set to 1, an untraced run uses the design's traced build when the cache has it (tracing is a
 * run-time choice): the test suite sets it, so a design it traces is not compiled a second time.
 */
export const REUSE_TRACED_ENV = 'GEN_VERILATOR_REUSE_TRACED';

/**
 * Verilator behind the Engine interface: the emitted Verilog plus the static C++ harness with the
 * design's generated port table (verilatorHarness.ts), built
 * once per distinct design (cached under build/verilator), many streams per process, or one
 * session per process.
 */
export class VerilatorEngine extends ExternalEngine<{ readonly build: VerilatorBuild; readonly design: IrDesign }> {
  readonly name = 'verilator' as const;
  /** Verilator ran the MmaBench at 18.5 k cycles/s (0.6 ns per cell-cycle): 5 µs leaves room for any load. */
  protected readonly cellCycleMicros = 5;
  protected override readonly fileBatches = true;

  /** `cacheRoot` overrides where builds are cached (tests use a private folder). */
  constructor(private readonly options: { readonly cacheRoot?: string } = {}) {
    super();
  }

  protected async build(
    design: IrDesign,
    files: ReadonlyMap<string, string>,
    ports: HarnessPorts,
    traced: boolean,
  ): Promise<{ build: VerilatorBuild; design: IrDesign }> {
    const reuseTraced = process.env[REUSE_TRACED_ENV] === '1';
    return {
      build: await buildVerilatorHarness(files, ports, { trace: traced, reuseTraced, ...this.options }),
      design,
    };
  }

  /** The harness binary; its argument is the raw trace (engineTrace.ts rewrites it into the engine-independent waveform). */
  protected launch(
    { build }: { readonly build: VerilatorBuild },
    vcd: string | undefined,
    files?: BatchFiles,
  ): HarnessLaunch {
    const args = [
      ...(vcd === undefined ? [] : ['--vcd', vcd]),
      ...(files ? ['--commands', files.commands, '--frames', files.frames] : []),
    ];
    return { program: build.binary, args, name: 'verilator' };
  }

  /** The same binary with `--serve files`: batches through files on one process (harnessProcess.ts, ServedHarness). */
  protected override served({ build }: { readonly build: VerilatorBuild }): HarnessLaunch {
    return { program: build.binary, args: ['--serve', 'files'], name: 'verilator' };
  }
}
