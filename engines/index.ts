import { hasTool, type ToolName } from '../tools/toolchain.ts';
import type { Engine, EngineName } from '../hw/contract/engine.ts';
import { TsEngine } from './ts/tsEngine.ts';

/** One row of the engine table: everything the CLI, the report and the benchmarks know of an engine. */
export interface EngineEntry {
  readonly name: EngineName;
  /** One line for help texts and the report. */
  readonly description: string;
  /** External programs it runs (tools/toolchain.ts names); empty for the in-process engine. */
  readonly programs: readonly ToolName[];
  /** A fresh engine; external ones are loaded only when asked for. */
  readonly create: () => Promise<Engine>;
}

/** The engine table: adding an engine is adding a row here (and its adapter). */
export const ENGINES: readonly EngineEntry[] = [
  {
    name: 'ts',
    description: 'the in-process compiled simulator, nothing to install',
    programs: [],
    create: async () => new TsEngine(),
  },
  {
    name: 'verilator',
    description: 'Verilator on the emitted Verilog with a C++ harness, built once per design',
    programs: ['verilator', 'make', 'g++'],
    create: async () => new (await import('./verilator/verilatorEngine.ts')).VerilatorEngine(),
  },
  {
    name: 'icarus',
    description: 'Icarus Verilog on the emitted Verilog with a generated testbench, iverilog then vvp',
    programs: ['iverilog', 'vvp'],
    create: async () => new (await import('./icarus/icarusEngine.ts')).IcarusEngine(),
  },
];

export const ENGINE_NAMES: EngineName[] = ENGINES.map((entry) => entry.name);

/** The table row of an engine. */
export function engineEntry(name: EngineName): EngineEntry {
  const entry = ENGINES.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no engine ${String(name)} in the engine table`);
  return entry;
}

/** The engine of that name. */
export function createEngine(name: EngineName): Promise<Engine> {
  return engineEntry(name).create();
}

/** The engines this machine can run, and for the others the first program that is missing. */
export function availableEngines(): {
  readonly available: EngineName[];
  readonly missing: { readonly engine: EngineName; readonly program: ToolName }[];
} {
  const available: EngineName[] = [];
  const missing: { engine: EngineName; program: ToolName }[] = [];
  for (const entry of ENGINES) {
    const absent = entry.programs.find((program) => !hasTool(program));
    if (absent === undefined) available.push(entry.name);
    else missing.push({ engine: entry.name, program: absent });
  }
  return { available, missing };
}

/** The engines for a help text, from the table: `ts: the in-process …; verilator: …`. */
export function engineHelp(): string {
  return ENGINES.map((entry) => `${entry.name}: ${entry.description}`).join('; ');
}
