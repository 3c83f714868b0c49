import type { ModuleDefinition } from '../hw/core/index.ts';
import { UserError } from '../common/errors.ts';
import { Counter } from '../hw/examples/counter.ts';
import { Popcount } from '../hw/examples/popcount.ts';
import { Lfsr } from '../hw/examples/lfsr.ts';
import { RegisterFile } from '../hw/examples/registerFile.ts';
import { MacPipeline } from '../hw/examples/macPipeline.ts';
import { BenchPipeline } from '../hw/examples/benchPipeline.ts';
import { Fp16Multiplier } from '../hw/designs/fp/fp16Multiplier.ts';
import { Fp32Adder } from '../hw/designs/fp/fp32Adder.ts';
import { DotProduct4 } from '../hw/designs/tensor/dotProduct4.ts';
import { TensorLane } from '../hw/designs/tensor/tensorLane.ts';
import { ThreadGroup } from '../hw/designs/tensor/threadGroup.ts';
import { Octet } from '../hw/designs/tensor/octet.ts';
import { TensorCore } from '../hw/designs/tensor/tensorCore.ts';
import { MmaUnit } from '../hw/designs/tensor/mmaUnit.ts';
import { OperandRegisterFile } from '../hw/designs/tensor/operandRegisterFile.ts';
import { MmaBench } from '../hw/designs/tensor/mmaBench.ts';
import {
  LaneDetector,
  AdderChain,
  RegisterIndexEmitter,
  DensePointerIncrementer,
  BitmapThreadSlice,
  BitmapDecoder,
} from '../hw/designs/decoder/index.ts';

/** A design the CLI can elaborate by name. */
export interface RegisteredTop {
  readonly name: string;
  readonly definition: ModuleDefinition;
  readonly description: string;
  /** 'example': small designs that exercise the framework; 'design': the Coruscant hardware. */
  readonly kind: 'example' | 'design';
}

const entry = (definition: ModuleDefinition, kind: RegisteredTop['kind']): RegisteredTop => ({
  name: definition.name,
  definition,
  description: definition.description ?? '',
  kind,
});

/** Every top `gen` knows, examples first, then the Coruscant blocks. */
export const registry: RegisteredTop[] = [
  ...[Counter, Popcount, Lfsr, RegisterFile, MacPipeline, BenchPipeline].map((definition) =>
    entry(definition as unknown as ModuleDefinition, 'example'),
  ),
  ...[Fp16Multiplier, Fp32Adder, DotProduct4, TensorLane].map((definition) =>
    entry(definition as unknown as ModuleDefinition, 'design'),
  ),
  ...[LaneDetector, AdderChain, RegisterIndexEmitter, DensePointerIncrementer, BitmapThreadSlice, BitmapDecoder].map(
    (definition) => entry(definition as unknown as ModuleDefinition, 'design'),
  ),
  ...[ThreadGroup, Octet, TensorCore, MmaUnit, OperandRegisterFile, MmaBench].map((definition) =>
    entry(definition as unknown as ModuleDefinition, 'design'),
  ),
];

/** The registered top of that name, or a UserError listing the known ones. */
export function findTop(name: string): RegisteredTop {
  const found = registry.find((top) => top.name === name);
  if (!found) throw new UserError(`unknown top '${name}' (known: ${registry.map((top) => top.name).join(', ')})`);
  return found;
}

/** Parses `k=v` parameter overrides against a top's defaults (numbers, booleans, strings by the default's type). */
export function parseParams(top: RegisteredTop, pairs: readonly string[]): Record<string, number | boolean | string> {
  const params: Record<string, number | boolean | string> = {};
  for (const pair of pairs) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(pair);
    if (!match) throw new UserError(`--param '${pair}' is not of the form name=value`);
    const [, key, text] = match as unknown as [string, string, string];
    const fallback = top.definition.defaults[key];
    if (fallback === undefined)
      throw new UserError(
        `${top.name} has no parameter '${key}' (it has: ${Object.keys(top.definition.defaults).join(', ') || 'none'})`,
      );
    if (typeof fallback === 'number') {
      const value = Number(text);
      if (!Number.isInteger(value)) throw new UserError(`--param ${key} needs a whole number, got '${text}'`);
      params[key] = value;
    } else if (typeof fallback === 'boolean') {
      if (text !== 'true' && text !== 'false') throw new UserError(`--param ${key} needs true or false, got '${text}'`);
      params[key] = text === 'true';
    } else params[key] = text;
  }
  return params;
}
