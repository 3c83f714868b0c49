import { placedModules, type IrDesign } from '../../../hw/ir/ir.ts';
import type { PortValues } from '../../../hw/contract/engine.ts';
import type { BinCounts } from './data.ts';

/** A state register of the design: an `fsm`'s, or any register of an enum type. */
export interface StateRegister {
  /** DSL path below the top (`phase`, `slice_0.phase`), as goals name signals. */
  readonly signal: string;
  /** The full DSL path (`Top.slice_0.phase`), as namedSignals() gives it. */
  readonly path: string;
  /** Value names by code. */
  readonly names: ReadonlyMap<bigint, string>;
  /** The declared moves (`from->to`), when the fsm or enumReg declares them. */
  readonly transitions?: readonly string[];
}

/** The label of a move between two states. */
export const moveLabel = (from: string, to: string): string => `${from}->${to}`;

/**
 * Every enum-typed register of the design at every place in the hierarchy, depth first from the
 * top: the registers whose state and transition coverage `gen regress --coverage` reports.
 */
export function stateRegisters(design: IrDesign): readonly StateRegister[] {
  const known = registerCache.get(design);
  if (known) return known;
  const found: StateRegister[] = [];
  for (const { module, scope } of placedModules(design)) {
    const registers = new Set(module.nets.filter((net) => net.kind === 'reg').map((net) => net.name));
    for (const type of module.enums ?? [])
      for (const signal of type.signals.filter((candidate) => registers.has(candidate))) {
        const moves = type.transitions?.[signal];
        const below = scope === '' ? signal : `${scope}.${signal}`;
        found.push({
          signal: below,
          path: `${design.top}.${below}`,
          names: new Map(type.values.map((value) => [value.code, value.name])),
          ...(moves ? { transitions: moves.map(([from, to]) => moveLabel(from, to)) } : {}),
        });
      }
  }
  registerCache.set(design, found);
  return found;
}

/** Per design, found once: coverage asks for every case. */
const registerCache = new WeakMap<IrDesign, readonly StateRegister[]>();

/** The goal names of a state register's coverage. */
export const stateGoal = (register: { readonly signal: string }): string => `${register.signal} (states)`;
export const transitionGoal = (register: { readonly signal: string }): string => `${register.signal} (transitions)`;

/** Empty counts of a register's goals: a bin per state, and per declared move. */
export function stateRegisterGoals(register: StateRegister): Record<string, BinCounts> {
  const zero = (labels: readonly string[]): Record<string, number> =>
    Object.fromEntries(labels.map((label) => [label, 0]));
  return {
    [stateGoal(register)]: {
      bins: zero([...register.names.values()]),
      other: {},
      signal: register.signal,
      kind: 'fsm-states',
    },
    ...(register.transitions
      ? {
          [transitionGoal(register)]: {
            bins: zero(register.transitions),
            other: {},
            signal: register.signal,
            kind: 'fsm-transitions' as const,
          },
        }
      : {}),
  };
}

/**
 * Counts one case of a state register: the cycles spent in each state and each move between
 * consecutive cycles, outside reset (a reset cycle's state is the engine's power-up value, which
 * differs between engines). A code no state has is named `0x…`; it and any move not declared go
 * to `other`, where the summary reports them as illegal.
 */
export function countStates(
  register: StateRegister,
  values: readonly (bigint | undefined)[],
  inputs: readonly PortValues[],
  hit: (goal: string, label: string) => void,
): void {
  const inReset = (cycle: number): boolean => (inputs[cycle]?.['reset'] ?? 0n) !== 0n;
  const nameOf = (code: bigint): string => register.names.get(code) ?? `0x${code.toString(16)}`;
  values.forEach((value, cycle) => {
    if (value === undefined || inReset(cycle)) return;
    hit(stateGoal(register), nameOf(value));
    const before = values[cycle - 1];
    if (cycle === 0 || before === undefined || inReset(cycle - 1) || before === value) return;
    if (register.transitions) hit(transitionGoal(register), moveLabel(nameOf(before), nameOf(value)));
  });
}
