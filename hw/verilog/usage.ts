import { CLOCK_PORT, RESET_PORT, type IrModule } from '../ir/ir.ts';

/** How each net of a module is read: how often, whether every bit is, and whether it is sliced. */
export interface NetUsage {
  /** Reads by cells, registers, memory write ports, instance inputs and output ports. */
  readonly uses: Uint32Array;
  /** False where some bit of the net is never read (Verilator -Wall would warn UNUSED). */
  readonly fullyRead: boolean[];
  /** Memories that no cell reads. */
  readonly unreadMemories: ReadonlySet<number>;
}

/**
 * Counts reads per net and checks bit coverage, so the emitter can inline single-use nodes and
 * silence Verilator's UNUSED warning exactly on the declarations that have unread bits.
 */
export function analyzeUsage(module: IrModule): NetUsage {
  const uses = new Uint32Array(module.nets.length);
  const ranges: [number, number][][] = module.nets.map(() => []);
  const read = (net: number, lo = 0, hi = module.nets[net]!.width - 1): void => {
    uses[net]!++;
    ranges[net]!.push([lo, hi]);
  };
  const readMemories = new Set<number>();
  for (const cell of module.cells) {
    if (cell.op === 'slice') read(cell.inputs[0]!, cell.lo!, cell.hi!);
    else cell.inputs.forEach((net) => read(net));
    if (cell.memory !== undefined) readMemories.add(cell.memory);
  }
  for (const register of module.registers) read(register.d);
  for (const memory of module.memories)
    for (const port of memory.writePorts) [port.address, port.data, port.enable].forEach((net) => read(net));
  for (const instance of module.instances) for (const net of instance.inputs.values()) read(net);
  for (const port of module.ports) if (port.direction === 'output') read(port.net);
  const checks = module.checks ?? [];
  for (const check of checks)
    [check.condition, ...(check.kind === 'cover' ? [] : check.reads)].forEach((net) => read(net));
  const prints = module.prints ?? [];
  for (const print of prints) [print.condition, ...print.args].forEach((net) => read(net));
  const portNet = (name: string): number | undefined => module.ports.find((port) => port.name === name)?.net;
  const clock = portNet(CLOCK_PORT);
  const defaultMemoryWrites = module.memories.some(
    (memory) => memory.domain === undefined && memory.writePorts.length > 0,
  );
  const defaultRegisters = module.registers.filter((register) => register.domain === undefined);
  if (
    clock !== undefined &&
    (defaultRegisters.length > 0 || checks.length > 0 || prints.length > 0 || defaultMemoryWrites)
  )
    read(clock);
  const reset = portNet(RESET_PORT);
  if (
    reset !== undefined &&
    (checks.length > 0 || prints.length > 0 || defaultRegisters.some((register) => register.resetValue !== undefined))
  )
    read(reset);
  for (const domain of module.domains ?? []) {
    const registers = module.registers.filter((register) => register.domain === domain.name);
    const writes = module.memories.some((memory) => memory.domain === domain.name && memory.writePorts.length > 0);
    if (registers.length > 0 || writes) read(portNet(domain.clock)!);
    if (registers.some((register) => register.resetValue !== undefined)) read(portNet(domain.reset)!);
  }

  const fullyRead = ranges.map((list, net) => covers(list, module.nets[net]!.width));
  const unreadMemories = new Set(module.memories.map((_, index) => index).filter((index) => !readMemories.has(index)));
  return { uses, fullyRead, unreadMemories };
}

/** Whether the bit ranges cover 0..width-1. */
function covers(ranges: [number, number][], width: number): boolean {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) return false;
    next = Math.max(next, hi + 1);
  }
  return next >= width;
}
