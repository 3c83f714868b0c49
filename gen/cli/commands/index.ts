import type { CommandModule } from 'yargs';
import { listCommand } from './list.ts';
import { simCommand } from './sim.ts';
import { waveCommand } from './wave.ts';
import { synthCommand } from './synth.ts';
import { spmmCommand } from './spmm.ts';
import { formatsCommand } from './formats.ts';
import { memsimCommand } from './memsim.ts';
import { verilogCommand } from './verilog.ts';
import { mmaCommand } from './mma.ts';
import { reportCommand } from './report.ts';
import { regressCommand } from './regress.ts';

/**
 * Every `gen` sub-command, in the order `gen --help` lists them. Each lives in its own file in
 * this folder and exports one yargs CommandModule.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- yargs command modules differ in their argument types
export const commands: CommandModule<any, any>[] = [listCommand, simCommand, waveCommand, synthCommand, spmmCommand, formatsCommand, memsimCommand, verilogCommand, mmaCommand, regressCommand, reportCommand];
