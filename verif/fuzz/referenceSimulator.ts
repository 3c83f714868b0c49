import type { IrDesign } from '../../hw/ir/ir.ts';
import { evaluateOperator } from '../../hw/ir/evaluate.ts';
import { orderCells } from '../../hw/ir/topology.ts';
import { flattenDesign } from '../../hw/sim/flatten.ts';
import type { PortValues } from '../../hw/contract/engine.ts';

/**
 * A deliberately plain interpreter of the flattened netlist over hw/ir/evaluate.ts (bigints,
 * one cell at a time): slow, but with none of the generated code's fast paths, so the compiled
 * simulator can be held to it. Same step contract as the engines.
 */
export function runReference(design: IrDesign, inputs: readonly PortValues[]): PortValues[] {
  const flat = flattenDesign(design);
  const cells = [...flat.cells];
  const { widths } = flat.nets;
  const order = orderCells(flat.nets.length, cells);
  const values = new Array<bigint>(flat.nets.length).fill(0n);
  const memories = flat.memories.map((memory) => [...(memory.init ?? new Array<bigint>(memory.depth).fill(0n))]);
  const settle = (): void => {
    for (const index of order) {
      const cell = cells[index]!;
      if (cell.op === 'const') values[cell.output] = cell.constant!;
      else if (cell.op === 'memread')
        values[cell.output] = memories[cell.memory!]![Number(values[cell.inputs[0]!])] ?? 0n;
      else
        values[cell.output] = evaluateOperator(
          cell.op,
          cell.inputs.map((net) => values[net]!),
          {
            output: widths[cell.output]!,
            inputs: cell.inputs.map((net) => widths[net]!),
            ...(cell.hi === undefined ? {} : { hi: cell.hi, lo: cell.lo! }),
          },
        );
    }
  };
  const outputs: PortValues[] = [];
  for (const cycle of inputs) {
    for (const [name, value] of Object.entries(cycle)) values[flat.inputs.get(name)!] = value;
    settle();
    outputs.push(Object.fromEntries([...flat.outputs].map(([name, net]) => [name, values[net]!])));
    const next = flat.registers.map((register) =>
      register.reset >= 0 && values[register.reset] ? register.resetValue : values[register.d]!,
    );
    flat.memories.forEach((memory, index) => {
      for (const port of memory.writePorts) {
        const address = Number(values[port.address]);
        if (!values[port.enable] || address >= memory.depth) continue;
        // A masked write keeps the bits of the lanes whose mask bit is 0.
        let bits = (1n << BigInt(memory.width)) - 1n;
        if (port.mask !== undefined) {
          bits = 0n;
          const lane = (1n << BigInt(memory.granularity)) - 1n;
          for (let index = 0; index < memory.width / memory.granularity; index++)
            if ((values[port.mask]! >> BigInt(index)) & 1n) bits |= lane << BigInt(index * memory.granularity);
        }
        const old = memories[index]![address]!;
        memories[index]![address] = (old & ~bits) | (values[port.data]! & bits);
      }
    });
    flat.registers.forEach((register, index) => (values[register.q] = next[index]!));
  }
  return outputs;
}
