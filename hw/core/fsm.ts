import { captureSourceLocation, type SourceLocation } from './sourceLocation.ts';
import type { Value } from './value.ts';
import type { Signal } from './signal.ts';
import type { ModuleBuilder } from './module.ts';
import { HdlError, InvalidParameterError } from './errors.ts';
import { fsmReg, type HdlEnum } from './enum.ts';

/** A state no transition reaches from the reset state, or a state without a body. */
export class UnreachableStateError extends HdlError {}

/** What a state's body gets: `go(next)` moves the machine to `next` at the coming edge. */
export type Go<N extends string> = (next: N) => void;

export interface Fsm<N extends string> {
  /** The state register (an enum register: named in Verilog and waveforms). */
  readonly state: Signal;
  /** Whether the machine is in `name` this cycle. */
  is(name: N): Value<1>;
  /** The transitions found, as `from -> to` pairs (for documentation and tests). */
  readonly transitions: readonly (readonly [N, N])[];
}

/**
 * A finite-state machine over an enum: one body per state, run under `when(state is that)`;
 * a body calls `go(next)` (inside its own `when`s as needed) to move on; without a `go` taken the
 * state holds. At elaboration every state must have a body and be reachable from `reset` over
 * the transitions the bodies make: an unreachable state is an UnreachableStateError at the
 * `fsm` call, naming the state.
 */
export function fsm<N extends string>(
  m: ModuleBuilder,
  name: string,
  type: HdlEnum<N>,
  options: { reset: N; states: { readonly [K in N]: (go: Go<N>) => void } },
): Fsm<N> {
  const location = captureSourceLocation();
  const missing = type.names.filter((state) => typeof options.states[state] !== 'function');
  if (missing.length > 0)
    throw new UnreachableStateError(location, `FSM '${name}': no body for state(s) ${missing.join(', ')}`);
  const extra = Object.keys(options.states).filter((state) => !type.names.includes(state as N));
  if (extra.length > 0)
    throw new InvalidParameterError(location, `FSM '${name}': ${extra.join(', ')} not in enum ${type.name}`);
  const transitions: [N, N][] = [];
  // Filled by the bodies below: lowering reads it once the module is built.
  const state = fsmReg(m, name, type, options.reset, transitions);
  for (const from of type.names) {
    m.when(type.is(state, from), () =>
      options.states[from]((next: N) => {
        const at: SourceLocation = captureSourceLocation();
        if (!type.names.includes(next))
          throw new InvalidParameterError(at, `FSM '${name}': no state '${next}' (it has: ${type.names.join(', ')})`);
        transitions.push([from, next]);
        state.set(type.lit(next));
      }),
    );
  }
  const reached = new Set<N>([options.reset]);
  const work = [options.reset];
  while (work.length > 0) {
    const from = work.pop()!;
    for (const [source, target] of transitions)
      if (source === from && !reached.has(target)) {
        reached.add(target);
        work.push(target);
      }
  }
  const unreachable = type.names.filter((state) => !reached.has(state));
  if (unreachable.length > 0)
    throw new UnreachableStateError(
      location,
      `FSM '${name}': state(s) ${unreachable.join(', ')} cannot be reached from '${options.reset}' (transitions: ${transitions.map(([a, b]) => `${a}->${b}`).join(', ') || 'none'})`,
    );
  return { state, is: (stateName) => type.is(state, stateName), transitions };
}
