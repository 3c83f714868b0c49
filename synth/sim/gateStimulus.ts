import { UserError } from '../../common/errors.ts';
import type { PortInfo } from '../netlist.ts';

/** One clock cycle of input values, by port name (clock excluded: the testbench drives it). */
export type InputVector = Readonly<Record<string, bigint>>;

/** What each top-level port is for, so the testbench drives clock and reset properly. */
export interface PortRoles {
  readonly clock?: string;
  readonly reset?: { readonly name: string; readonly activeLow: boolean };
  /** Inputs driven from the vectors, reset included, in declaration order. */
  readonly driven: readonly PortInfo[];
  readonly outputs: readonly PortInfo[];
}

export interface RoleOverrides {
  /** Clock port name; null: the design has no clock. Default: an input named clk or clock. */
  readonly clock?: string | null;
  /** Reset port name; null: no reset. Default: rst/reset (active high) or rst_n/rstn/reset_n/resetn (active low). */
  readonly reset?: string | null;
}

const clockNames = /^(clk|clock)$/i;
const resetHigh = /^(rst|reset)$/i;
const resetLow = /^(rst_?n|reset_?n|rst_?b)$/i;

function findInput(inputs: readonly PortInfo[], name: string, role: string): PortInfo {
  const port = inputs.find((candidate) => candidate.name === name);
  if (!port) throw new UserError(`${role} port "${name}" is not an input of the top module`);
  if (port.width !== 1) throw new UserError(`${role} port "${name}" must be 1 bit wide, not ${port.width}`);
  return port;
}

/** Sorts a top's ports into clock, reset, driven inputs and outputs. */
export function portRoles(ports: readonly PortInfo[], overrides: RoleOverrides = {}): PortRoles {
  if (ports.some((port) => port.direction === 'inout'))
    throw new UserError('inout ports are not supported by the gate-level flow');
  const inputs = ports.filter((port) => port.direction === 'input');
  const outputs = ports.filter((port) => port.direction === 'output');
  const clockName =
    overrides.clock === null
      ? undefined
      : (overrides.clock ?? inputs.find((port) => clockNames.test(port.name) && port.width === 1)?.name);
  const clock = clockName === undefined ? undefined : findInput(inputs, clockName, 'clock').name;
  const resetName =
    overrides.reset === null
      ? undefined
      : (overrides.reset ??
        inputs.find((port) => port.width === 1 && (resetHigh.test(port.name) || resetLow.test(port.name)))?.name);
  const reset =
    resetName === undefined
      ? undefined
      : { name: findInput(inputs, resetName, 'reset').name, activeLow: resetLow.test(resetName) };
  return {
    ...(clock ? { clock } : {}),
    ...(reset ? { reset } : {}),
    driven: inputs.filter((port) => port.name !== clock),
    outputs,
  };
}

/** mulberry32: a tiny seeded generator, so a seed names a stimulus exactly. */
function seededWords(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function randomBits(next: () => number, width: number): bigint {
  let value = 0n;
  for (let bit = 0; bit < width; bit += 32) value = (value << 32n) | BigInt(next());
  return value & ((1n << BigInt(width)) - 1n);
}

/** Built-in workloads: uniformly random inputs, or every input held at zero. */
export type Workload = 'random' | 'zero';

export interface WorkloadOptions {
  readonly cycles: number;
  readonly seed?: number;
  /** Cycles at the start with reset asserted (default 2); afterwards reset is released. */
  readonly resetCycles?: number;
}

/**
 * Input vectors for a built-in workload. Reset, if the design has one, is asserted for the first
 * `resetCycles` cycles and released after, whatever the workload, so registers start known.
 */
export function workloadVectors(roles: PortRoles, workload: Workload, options: WorkloadOptions): InputVector[] {
  const next = seededWords(options.seed ?? 1);
  const resetCycles = roles.reset ? (options.resetCycles ?? 2) : 0;
  const vectors: InputVector[] = [];
  for (let cycle = 0; cycle < options.cycles; cycle++) {
    const vector: Record<string, bigint> = {};
    for (const port of roles.driven) {
      if (port.name === roles.reset?.name) {
        const asserted = cycle < resetCycles;
        vector[port.name] = asserted !== roles.reset.activeLow ? 1n : 0n;
      } else {
        vector[port.name] = workload === 'random' ? randomBits(next, port.width) : 0n;
      }
    }
    vectors.push(vector);
  }
  return vectors;
}
