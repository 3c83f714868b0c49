import type { ActivityStimulus } from './activity.ts';
import { defaultSource, defaultTarget, scalingFactors, type ScalingFactors, type TechPoint } from './scaling.ts';
import type { RoleOverrides } from './sim/gateStimulus.ts';
import type { MappedDesign } from './mapToCells.ts';
import type { YosysEngine } from '../tools/yosys.ts';

/** Options of one synthesis run (synthesizeDesign), flat or composed. */
export interface SynthesizeOptions extends RoleOverrides {
  readonly engine?: YosysEngine;
  /** Clock for power (and the report), GHz; default 1. */
  readonly clockGhz?: number;
  /** Activity source; default 200 cycles of seeded random inputs. */
  readonly stimulus?: ActivityStimulus;
  /** How the report names the stimulus (default: derived from it, e.g. "200 given vectors"). */
  readonly stimulusLabel?: string;
  readonly source?: TechPoint;
  readonly target?: TechPoint;
  /** 'longest-path' skips OpenSTA. */
  readonly timingEngine?: 'opensta' | 'longest-path';
  /** Reuse an existing mapping of the same Verilog instead of running Yosys again. */
  readonly mapped?: MappedDesign;
  /**
   * Limit for each external tool step (system Yosys, Icarus compile and run); default 120 s.
   * Icarus runs a zero-delay netlist event by event: a 9000-cell FP lane takes about a second per cycle.
   */
  readonly toolTimeoutMs?: number;
  /**
   * Synthesize by composition (composedSynthesis.ts): these modules are simulated once each on
   * their own stimulus and counted by instances; the rest at gate level around them as RTL.
   * For designs too large to simulate flat (the MmaUnit's 32 FP lanes).
   */
  readonly compose?: readonly ComposedModule[];
  /**
   * Memories of at least this many bits are SRAM macros (area, leakage and access energy from
   * the 45 nm macro table, docs/reference/sram45.md), not flip-flops; default 1024.
   */
  readonly sramThresholdBits?: number;
}

/** A module measured once on its own stimulus and counted by its instances (`SynthesizeOptions.compose`). */
export interface ComposedModule {
  readonly module: string;
  /** What one instance is simulated on, e.g. lane 0's operand stream. */
  readonly stimulus: ActivityStimulus;
  readonly stimulusLabel: string;
}

/** The options of one synthesis run with every default filled in, shared by the flat and the composed flow. */
export interface FlowSettings {
  readonly clockGhz: number;
  readonly stimulus: ActivityStimulus;
  readonly source: TechPoint;
  readonly target: TechPoint;
  readonly factors: ScalingFactors;
  readonly roles: RoleOverrides;
  /** Spread into tool options: the step limit when one was given. */
  readonly timeout: { readonly timeoutMs?: number };
  /** Spread into mapping options: the Yosys engine when one was given. */
  readonly engine: { readonly engine?: YosysEngine };
}

/** Defaults: 1 GHz, 200 cycles of seeded random inputs, HP45 @ 1.1 V → HP7 @ 0.7 V. */
export function flowSettings(options: SynthesizeOptions): FlowSettings {
  const source = options.source ?? defaultSource;
  const target = options.target ?? defaultTarget;
  return {
    clockGhz: options.clockGhz ?? 1,
    stimulus: options.stimulus ?? { workload: 'random', cycles: 200, seed: 1 },
    source,
    target,
    factors: scalingFactors(source, target),
    roles: {
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      ...(options.reset !== undefined ? { reset: options.reset } : {}),
    },
    timeout: options.toolTimeoutMs !== undefined ? { timeoutMs: options.toolTimeoutMs } : {},
    engine: options.engine ? { engine: options.engine } : {},
  };
}
