import type { IrModule } from '../ir.ts';

/**
 * Removes unnamed cells and nets that nothing observable reads. Ports, named signals, registers,
 * memory writes and instance connections are observable (named signals stay for waveforms).
 * Net ids are compacted afterwards, so backends see a dense array.
 */
export function removeDeadCode(module: IrModule): void {
  const driver = new Int32Array(module.nets.length).fill(-1);
  module.cells.forEach((cell, index) => (driver[cell.output] = index));
  const live = new Uint8Array(module.nets.length);
  const work: number[] = [];
  const mark = (net: number): void => {
    if (live[net]) return;
    live[net] = 1;
    work.push(net);
  };
  module.nets.forEach((net) => net.kind !== 'node' && mark(net.id));
  for (const register of module.registers) mark(register.d);
  for (const memory of module.memories)
    for (const port of memory.writePorts) [port.address, port.data, port.enable].forEach(mark);
  for (const instance of module.instances) for (const net of instance.inputs.values()) mark(net);
  while (work.length > 0) {
    const cell = driver[work.pop()!]!;
    if (cell >= 0) module.cells[cell]!.inputs.forEach(mark);
  }
  if (live.every((flag) => flag === 1)) return;
  compactNets(module, live);
}

/** Keeps the nets flagged in `keep` (and the cells driving them), renumbering ids densely. */
function compactNets(module: IrModule, keep: Uint8Array): void {
  const newId = new Int32Array(module.nets.length).fill(-1);
  let next = 0;
  module.nets.forEach((_, id) => keep[id] && (newId[id] = next++));
  const map = (id: number): number => newId[id]!;
  module.nets = module.nets.filter((net) => keep[net.id]).map((net) => ({ ...net, id: map(net.id) }));
  module.cells = module.cells
    .filter((cell) => keep[cell.output])
    .map((cell) => ({ ...cell, output: map(cell.output), inputs: cell.inputs.map(map) }));
  module.registers.forEach(
    (register, index) => (module.registers[index] = { ...register, q: map(register.q), d: map(register.d) }),
  );
  module.memories.forEach((memory, index) => {
    module.memories[index] = {
      ...memory,
      writePorts: memory.writePorts.map((port) => ({
        ...port,
        address: map(port.address),
        data: map(port.data),
        enable: map(port.enable),
      })),
    };
  });
  module.instances.forEach((instance, index) => {
    module.instances[index] = {
      ...instance,
      inputs: new Map([...instance.inputs].map(([port, net]) => [port, map(net)])),
      outputs: new Map([...instance.outputs].map(([port, net]) => [port, map(net)])),
    };
  });
  module.ports.forEach((port, index) => (module.ports[index] = { ...port, net: map(port.net) }));
}
