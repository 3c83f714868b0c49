import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../common/errors.ts';
import type { IrDesign } from '../hw/ir/ir.ts';
import { emitVerilog } from '../hw/verilog/emit.ts';
import type { CycleRun, PortValues } from './engine.ts';
import { formatStimulus, harnessPortsOf, parseResults, type HarnessPorts } from './harnessStimulus.ts';

/** What an external simulator contributes: how to build a design once and run stimulus on the build. */
export interface ExternalSimulator<Build> {
  readonly tool: string;
  build(design: IrDesign, files: ReadonlyMap<string, string>, ports: HarnessPorts, traced: boolean): Promise<Build>;
  run(build: Build, stimulus: string, options: { vcd?: string }): Promise<string>;
}

/**
 * The part every external engine shares: emit Verilog, build (cached), write all streams into one
 * stimulus file so one process runs them all, parse the results. A VCD is written under a
 * temporary name and renamed into place only when the run succeeds.
 */
export async function simulateExternally<Build>(
  simulator: ExternalSimulator<Build>,
  design: IrDesign,
  streams: readonly (readonly PortValues[])[],
  vcd?: string,
): Promise<CycleRun[]> {
  if (streams.length === 0) return [];
  const ports = harnessPortsOf(design);
  const stimulus = formatStimulus(ports, streams);
  const build = await simulator.build(design, emitVerilog(design), ports, vcd !== undefined);
  if (vcd === undefined)
    return parseResults(
      simulator.tool,
      ports,
      await simulator.run(build, stimulus, {}),
      streams.map((stream) => stream.length),
    );
  try {
    mkdirSync(dirname(vcd), { recursive: true });
  } catch (error) {
    throw new UserError(`cannot write ${vcd}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const temporary = join(dirname(vcd), `.${basename(vcd)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const results = parseResults(
      simulator.tool,
      ports,
      await simulator.run(build, stimulus, { vcd: temporary }),
      streams.map((stream) => stream.length),
    );
    renameSync(temporary, vcd);
    return results;
  } finally {
    rmSync(temporary, { force: true });
  }
}
