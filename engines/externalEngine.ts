import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../common/errors.ts';
import type { IrDesign } from '../hw/ir/ir.ts';
import { emitVerilog } from '../hw/verilog/emit.ts';
import type { CycleRun, Engine, EngineName, PortValues, RunOptions } from './engine.ts';
import { formatStimulus, harnessPortsOf, parseResults, type HarnessPorts } from './harnessStimulus.ts';

/**
 * The adapter base of every engine that runs an external simulator (Verilator, Icarus, and
 * Icarus on a mutant's Verilog). What they share lives here: emit the Verilog, build once per
 * design (the build is cached by the tool layer), write all streams into one stimulus file so one
 * process runs them all, parse the results (which checks every stream produced every cycle), and
 * write a VCD under a temporary name renamed into place only when the run succeeded. A subclass
 * says how to build and how to run a build; nothing else.
 */
export abstract class ExternalEngine<Build> implements Engine {
  abstract readonly name: EngineName;

  /** Builds the harness or testbench around `files` (cached by content). */
  protected abstract build(
    design: IrDesign,
    files: ReadonlyMap<string, string>,
    ports: HarnessPorts,
    traced: boolean,
  ): Promise<Build>;

  /** Runs stimulus text on a build and returns the results text (formats: harnessStimulus.ts). */
  protected abstract execute(build: Build, stimulus: string, options: { readonly vcd?: string }): Promise<string>;

  /** The Verilog simulated: the design's own; the mutation engine gives a mutant's instead. */
  protected verilogOf(design: IrDesign): ReadonlyMap<string, string> {
    return emitVerilog(design);
  }

  async run(design: IrDesign, inputs: readonly PortValues[], options: RunOptions = {}): Promise<CycleRun> {
    const [run] = await this.simulate(design, [inputs], options.vcd);
    return run!;
  }

  runMany(design: IrDesign, streams: readonly (readonly PortValues[])[]): Promise<CycleRun[]> {
    return this.simulate(design, streams);
  }

  private async simulate(
    design: IrDesign,
    streams: readonly (readonly PortValues[])[],
    vcd?: string,
  ): Promise<CycleRun[]> {
    if (streams.length === 0) return [];
    const ports = harnessPortsOf(design);
    const stimulus = formatStimulus(ports, streams);
    const cycles = streams.map((stream) => stream.length);
    const build = await this.build(design, this.verilogOf(design), ports, vcd !== undefined);
    if (vcd === undefined) return parseResults(this.name, ports, await this.execute(build, stimulus, {}), cycles);
    try {
      mkdirSync(dirname(vcd), { recursive: true });
    } catch (error) {
      throw new UserError(`cannot write ${vcd}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const temporary = join(dirname(vcd), `.${basename(vcd)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      const results = parseResults(this.name, ports, await this.execute(build, stimulus, { vcd: temporary }), cycles);
      renameSync(temporary, vcd);
      return results;
    } finally {
      rmSync(temporary, { force: true });
    }
  }
}
