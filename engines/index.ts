import type { Engine, EngineName } from './engine.ts';
import { TsEngine } from './tsEngine.ts';

/** Engines by name; external ones are loaded only when asked for. */
const FACTORIES: Record<EngineName, () => Promise<Engine>> = {
  ts: async () => new TsEngine(),
  verilator: async () => new (await import('./verilatorEngine.ts')).VerilatorEngine(),
  icarus: async () => new (await import('./icarusEngine.ts')).IcarusEngine(),
};

export const ENGINE_NAMES = Object.keys(FACTORIES) as EngineName[];

/** The engine of that name. */
export function createEngine(name: EngineName): Promise<Engine> {
  return FACTORIES[name]();
}
