import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { EngineName } from '../../engines/engine.ts';

/** The program each external engine needs on PATH; the in-process engine needs nothing. */
const ENGINE_PROGRAMS: Record<EngineName, string | undefined> = { ts: undefined, verilator: 'verilator', icarus: 'iverilog' };

/** Whether an executable of that name is on PATH (no process is started). */
export function onPath(program: string): boolean {
  return (process.env['PATH'] ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The engines this machine can run, and why the others cannot. */
export function availableEngines(): { readonly available: EngineName[]; readonly missing: { engine: EngineName; program: string }[] } {
  const available: EngineName[] = [];
  const missing: { engine: EngineName; program: string }[] = [];
  for (const [engine, program] of Object.entries(ENGINE_PROGRAMS) as [EngineName, string | undefined][]) {
    if (program === undefined || onPath(program)) available.push(engine);
    else missing.push({ engine, program });
  }
  return { available, missing };
}
