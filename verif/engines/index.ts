import type { Engine, EngineName } from './engine.ts';
import { TsEngine } from './ts.ts';

/** Engines by name; external ones are loaded only when asked for. */
const FACTORIES: Record<EngineName, () => Promise<Engine>> = {
  ts: async () => new TsEngine(),
  verilator: async () => new (await import('./verilator.ts')).VerilatorEngine(),
  icarus: async () => new (await import('./icarus.ts')).IcarusEngine(),
};

export const ENGINE_NAMES = Object.keys(FACTORIES) as EngineName[];

/** The engine of that name. */
export function createEngine(name: EngineName): Promise<Engine> {
  return FACTORIES[name]();
}
