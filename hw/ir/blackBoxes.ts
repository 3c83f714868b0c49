import { InvalidParameterError } from '../core/errors.ts';
import { formatLocation } from '../core/sourceLocation.ts';
import type { IrDesign } from './ir.ts';

/**
 * Refuses a design for the in-process engine when a black box in it has no TypeScript model:
 * there is nothing to simulate. Names the black box, where it was declared and its Verilog file.
 */
export function refuseUnmodelledBlackBoxes(design: IrDesign): void {
  const unmodelled = design.modules.find((module) => module.blackBox !== undefined && !module.blackBox.model);
  if (!unmodelled) return;
  throw new InvalidParameterError(
    unmodelled.location,
    `${unmodelled.name} is a black box (${formatLocation({ file: unmodelled.blackBox!.file, line: 1, column: 1 }).replace(/:1$/, '')}) without a TypeScript model: the ts engine cannot run ${design.top}; use the verilator or icarus engine, or give defineBlackBox a model`,
  );
}
