import type { IrCell, IrModule } from '../ir.ts';
import { evaluateOperator } from '../evaluate.ts';
import { orderCells } from '../topology.ts';

/**
 * Replaces unnamed cells whose inputs are all constants by constants, and muxes with a constant
 * select by the chosen arm. Named nets keep their cells, so the Verilog still reads like the source.
 */
export function foldConstants(module: IrModule): IrModule {
  const cells = [...module.cells];
  let changed = false;
  const constantOf = new Map<number, bigint>();
  for (const index of orderCells(module.nets.length, module.cells)) {
    const cell = module.cells[index]!;
    if (cell.op === 'const') {
      constantOf.set(cell.output, cell.constant!);
      continue;
    }
    if (module.nets[cell.output]!.kind !== 'node' || cell.op === 'memread') continue;
    if (cell.op === 'mux') {
      const select = constantOf.get(cell.inputs[0]!);
      if (select === undefined) continue;
      const chosen = select ? cell.inputs[1]! : cell.inputs[2]!;
      const value = constantOf.get(chosen);
      changed = true;
      cells[index] =
        value === undefined
          ? { op: 'buf', output: cell.output, inputs: [chosen], location: cell.location }
          : constantCell(cell, value);
      if (value !== undefined) constantOf.set(cell.output, value);
      continue;
    }
    const inputs = cell.inputs.map((net) => constantOf.get(net));
    if (inputs.some((value) => value === undefined)) continue;
    const value = evaluateOperator(cell.op, inputs as bigint[], {
      output: module.nets[cell.output]!.width,
      inputs: cell.inputs.map((net) => module.nets[net]!.width),
      ...(cell.hi === undefined ? {} : { hi: cell.hi, lo: cell.lo! }),
    });
    changed = true;
    cells[index] = constantCell(cell, value);
    constantOf.set(cell.output, value);
  }
  return changed ? { ...module, cells } : module;
}

function constantCell(cell: IrCell, value: bigint): IrCell {
  return { op: 'const', output: cell.output, inputs: [], constant: value, location: cell.location };
}
