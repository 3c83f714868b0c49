import type { ActivityStimulus } from './activity.ts';
import { defaultSource, defaultTarget, scalingFactors, type ScalingFactors, type TechPoint } from './scaling.ts';
import type { RoleOverrides } from './sim/gateStimulus.ts';
import type { SynthesizeOptions } from './synthesizeDesign.ts';
import type { YosysEngine } from './yosys.ts';

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
