import { UserError } from '../common/errors.ts';
import type { EngineSession, PortValues } from '../hw/contract/engine.ts';
import type { HarnessPorts } from './harness/harnessStimulus.ts';
import { PortFrames } from '../hw/contract/portFrames.ts';

/**
 * What EngineSession.waitFor waits for: every named output at its value. `value` and `mask` are
 * one outputs frame each (the top's outputs in port order), the mask all ones over the named
 * ports, so a harness compares a sampled frame word by word (OP_WAIT, hw/contract/harnessProtocol.ts).
 */
export interface OutputCondition {
  readonly values: PortValues;
  readonly value: PortFrames;
  readonly mask: PortFrames;
}

/**
 * `values` checked against the top's outputs, as bigints: an unknown output or a value that does
 * not fit is a UserError. Callers above an engine (a testbench) check with it before a wait starts.
 */
export function checkedOutputValues(
  top: string,
  outputs: readonly { readonly name: string; readonly width: number }[],
  values: Readonly<Record<string, bigint | number>>,
): PortValues {
  const checked: PortValues = {};
  for (const [name, given] of Object.entries(values)) {
    const port = outputs.find((output) => output.name === name);
    if (!port)
      throw new UserError(
        `${top} has no output '${name}' (outputs: ${outputs.map((output) => output.name).join(', ') || 'none'})`,
      );
    const big = typeof given === 'bigint' ? given : Number.isInteger(given) ? BigInt(given) : -1n;
    if (big < 0n || big >> BigInt(port.width) !== 0n)
      throw new UserError(`value ${given} does not fit the ${port.width}-bit output '${name}'`);
    checked[name] = big;
  }
  return checked;
}

/** The condition of `values` on the top's outputs; an unknown output or a value that does not fit is a UserError. */
export function outputCondition(
  ports: HarnessPorts,
  values: Readonly<Record<string, bigint | number>>,
): OutputCondition {
  const value = PortFrames.empty(ports.outputs, 1);
  const mask = PortFrames.empty(ports.outputs, 1);
  const checked = checkedOutputValues(ports.top, ports.outputs, values);
  for (const [name, big] of Object.entries(checked)) {
    const width = ports.outputs.find((output) => output.name === name)!.width;
    value.set(0, name, big);
    mask.set(0, name, (1n << BigInt(width)) - 1n);
  }
  return { values: checked, value, mask };
}

/** The cycles a wait may step: a whole number up to 2^32 - 1 (a harness counts them in one word), else a UserError. */
export function waitLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > 0xffffffff)
    throw new UserError(`waitFor: ${limit} is not a count of cycles`);
  return limit;
}

/** Every output the condition names has its value in `outputs`. */
export function conditionHolds(condition: OutputCondition, outputs: PortValues): boolean {
  return Object.entries(condition.values).every(([name, value]) => outputs[name] === value);
}

/**
 * EngineSession.waitFor as a loop of peeks and steps: the condition checked in the current cycle,
 * then after each step, at most `limit` steps. The in-process engine's way, and an external
 * engine's where its harness cannot wait by itself.
 */
export async function waitByStepping(
  session: Pick<EngineSession, 'peekAll' | 'step'>,
  condition: OutputCondition,
  limit: number,
): Promise<number | undefined> {
  for (let waited = 0; ; waited++) {
    if (conditionHolds(condition, await session.peekAll())) return waited;
    if (waited === limit) return undefined;
    await session.step();
  }
}
