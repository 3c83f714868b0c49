import type { IrModule } from '../ir.ts';

/**
 * Removes unnamed cells and nets that nothing observable reads. Ports, named signals, registers,
 * memory writes and instance connections are observable (named signals stay for waveforms).
 * Net ids are compacted afterwards, so backends see a dense array.
 */
export function removeDeadCode(module: IrModule): IrModule {
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
    for (const port of memory.writePorts)
      [port.address, port.data, port.enable, ...(port.mask === undefined ? [] : [port.mask])].forEach(mark);
  for (const instance of module.instances) for (const net of instance.inputs.values()) mark(net);
  // What an assertion, assumption or cover point reads is observable (the check reports it).
  for (const check of module.checks ?? []) [check.condition, ...check.reads].forEach(mark);
  for (const print of module.prints ?? []) [print.condition, ...print.args].forEach(mark);
  while (work.length > 0) {
    const cell = driver[work.pop()!]!;
    if (cell >= 0) module.cells[cell]!.inputs.forEach(mark);
  }
  if (live.every((flag) => flag === 1)) return module;
  return compactNets(module, live);
}

/** Keeps the nets flagged in `keep` (and the cells driving them), renumbering ids densely. */
function compactNets(module: IrModule, keep: Uint8Array): IrModule {
  const newId = new Int32Array(module.nets.length).fill(-1);
  let next = 0;
  module.nets.forEach((_, id) => keep[id] && (newId[id] = next++));
  const map = (id: number): number => newId[id]!;
  const remap = (nets: ReadonlyMap<string, number>): Map<string, number> =>
    new Map([...nets].map(([port, net]) => [port, map(net)]));
  return {
    ...module,
    nets: module.nets.filter((net) => keep[net.id]).map((net) => ({ ...net, id: map(net.id) })),
    cells: module.cells
      .filter((cell) => keep[cell.output])
      .map((cell) => ({ ...cell, output: map(cell.output), inputs: cell.inputs.map(map) })),
    registers: module.registers.map((register) => ({ ...register, q: map(register.q), d: map(register.d) })),
    memories: module.memories.map((memory) => ({
      ...memory,
      writePorts: memory.writePorts.map((port) => ({
        ...port,
        address: map(port.address),
        data: map(port.data),
        enable: map(port.enable),
        ...(port.mask === undefined ? {} : { mask: map(port.mask) }),
      })),
    })),
    instances: module.instances.map((instance) => ({
      ...instance,
      inputs: remap(instance.inputs),
      outputs: remap(instance.outputs),
    })),
    ports: module.ports.map((port) => ({ ...port, net: map(port.net) })),
    ...(module.checks === undefined
      ? {}
      : {
          checks: module.checks.map((check) => ({
            ...check,
            condition: map(check.condition),
            reads: check.reads.map(map),
          })),
        }),
    ...(module.prints === undefined
      ? {}
      : {
          prints: module.prints.map((print) => ({
            ...print,
            condition: map(print.condition),
            args: print.args.map(map),
          })),
        }),
  };
}
