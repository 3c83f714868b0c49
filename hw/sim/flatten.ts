import type { CellOp, IrCell, IrCheck, IrDesign, IrModule } from '../ir/ir.ts';
import { moduleByName, topModule, clockOfDomain, clockPortsOf, RESET_PORT } from '../ir/ir.ts';
import type { SourceLocation } from '../core/sourceLocation.ts';

/** A net of the flattened design, with the instance path it lives in (for VCD scopes and peeks). */
export interface FlatNet {
  readonly id: number;
  /** Instance names from the top down, empty for the top module. */
  readonly scope: readonly string[];
  readonly name: string;
  readonly width: number;
  /** Named nets (ports, wires, registers) are traced and peekable; nodes are not. */
  readonly named: boolean;
  readonly location: SourceLocation;
}

export interface FlatCell {
  readonly op: CellOp;
  readonly output: number;
  readonly inputs: readonly number[];
  readonly constant?: bigint;
  readonly hi?: number;
  readonly lo?: number;
  readonly memory?: number;
}

export interface FlatRegister {
  readonly q: number;
  readonly d: number;
  /** The reset net of the register's module; -1 when the register has no reset value. */
  readonly reset: number;
  readonly resetValue: bigint;
  /** Index of its clock in FlatDesign.clocks. */
  readonly clock: number;
  /** Its domain's reset is asynchronous: then `reset` is the top's reset input, acting while high. */
  readonly asyncReset: boolean;
}

export interface FlatMemory {
  readonly scope: readonly string[];
  readonly name: string;
  readonly width: number;
  readonly depth: number;
  readonly writePorts: readonly {
    readonly address: number;
    readonly data: number;
    readonly enable: number;
    /** Lane mask (`width / granularity` bits), absent for whole-word writes. */
    readonly mask?: number;
  }[];
  /** Bits per mask bit (1 when no port is masked). */
  readonly granularity: number;
  /** Contents at the start, `depth` words (absent: all 0). */
  readonly init?: readonly bigint[];
  /** Index of its write clock in FlatDesign.clocks. */
  readonly clock: number;
}

/** An assertion, assumption or cover point of one instance (hw/ir IrCheck), on flat nets. */
export interface FlatCheck {
  readonly kind: IrCheck['kind'];
  readonly condition: number;
  /** The reset net of its module, -1 for a combinational module (checked every evaluation). */
  readonly reset: number;
  readonly reads: readonly { readonly name: string; readonly net: number }[];
  readonly message: string;
  readonly location: SourceLocation;
  readonly module: string;
  readonly index: number;
  /** Instance path, dotted, '' for the top. */
  readonly scope: string;
}

/** The whole design as one module: what the simulator compiles. */
export interface FlatDesign {
  readonly top: IrModule;
  readonly nets: FlatNet[];
  readonly cells: FlatCell[];
  readonly registers: FlatRegister[];
  readonly memories: FlatMemory[];
  /** Checks of every instance (absent or empty: none). */
  readonly checks?: readonly FlatCheck[];
  /** The top's clock inputs (`clk` first when it has one): registers and memories name them by index. */
  readonly clocks: readonly string[];
  /** Every clock port net, in every scope → its index in `clocks` (traces show it rising with that clock). */
  readonly clockNets: ReadonlyMap<number, number>;
  /** Top-level ports by name → flat net (clocks excluded). */
  readonly inputs: ReadonlyMap<string, number>;
  readonly outputs: ReadonlyMap<string, number>;
}

/**
 * Inlines every instance (iteratively, so deep hierarchies are fine). Instance ports become
 * buffers between the parent's net and the child's port net, so both names stay visible.
 */
export function flattenDesign(design: IrDesign): FlatDesign {
  const nets: FlatNet[] = [];
  const cells: FlatCell[] = [];
  const registers: FlatRegister[] = [];
  const memories: FlatMemory[] = [];
  const checks: FlatCheck[] = [];
  const top = topModule(design);
  const clocks = clockPortsOf(top);
  const topResets = clocks.map((clock) =>
    clock === clocks[0] && top.clocked ? RESET_PORT : top.domains!.find((domain) => domain.clock === clock)!.reset,
  );
  const work: {
    module: IrModule;
    scope: string[];
    after: (map: Int32Array) => void;
    /** The module's clock ports → index in `clocks`. */
    clockIndex: ReadonlyMap<string, number>;
  }[] = [
    { module: top, scope: [], after: () => {}, clockIndex: new Map(clocks.map((clock, index) => [clock, index])) },
  ];
  let topMap: Int32Array | undefined;
  const topResetNets: number[] = [];
  const clockNets = new Map<number, number>();
  while (work.length > 0) {
    const { module, scope, after, clockIndex } = work.pop()!;
    const clockOf = (domain: string | undefined): number => clockIndex.get(clockOfDomain(module, domain)) ?? 0;
    const asyncDomains = new Set(
      (module.domains ?? []).filter((domain) => domain.resetKind === 'async').map((domain) => domain.name),
    );
    const map = new Int32Array(module.nets.length);
    for (const net of module.nets) {
      map[net.id] = nets.length;
      nets.push({
        id: nets.length,
        scope,
        name: net.name,
        width: net.width,
        named: net.kind !== 'node',
        location: net.location,
      });
    }
    const memoryBase = memories.length;
    for (const memory of module.memories)
      memories.push({
        scope,
        name: memory.name,
        width: memory.width,
        depth: memory.depth,
        writePorts: memory.writePorts.map((port) => ({
          address: map[port.address]!,
          data: map[port.data]!,
          enable: map[port.enable]!,
          ...(port.mask === undefined ? {} : { mask: map[port.mask]! }),
        })),
        clock: clockOf(memory.domain),
        granularity: memory.granularity ?? 1,
        ...(memory.init === undefined ? {} : { init: memory.init }),
      });
    for (const cell of module.cells) cells.push(remapCell(cell, map, memoryBase));
    const resetPort = module.ports.find((port) => port.name === 'reset' && module.clocked);
    if (scope.length === 0)
      topResets.forEach((name) => topResetNets.push(map[top.ports.find((port) => port.name === name)!.net]!));
    for (const register of module.registers) {
      const clock = clockOf(register.domain);
      const asyncReset = register.domain !== undefined && asyncDomains.has(register.domain);
      const domainReset =
        register.domain === undefined
          ? resetPort?.net
          : module.ports.find((port) => port.name === module.domains!.find((d) => d.name === register.domain)!.reset)!
              .net;
      registers.push({
        q: map[register.q]!,
        d: map[register.d]!,
        // An asynchronous reset acts before anything settles: the top's input itself, not its copy here.
        reset:
          register.resetValue === undefined || domainReset === undefined
            ? -1
            : asyncReset
              ? topResetNets[clock]!
              : map[domainReset]!,
        resetValue: register.resetValue ?? 0n,
        clock,
        asyncReset: asyncReset && register.resetValue !== undefined,
      });
    }
    (module.checks ?? []).forEach((check, index) =>
      checks.push({
        kind: check.kind,
        condition: map[check.condition]!,
        reset: resetPort ? map[resetPort.net]! : -1,
        reads: check.reads.map((net) => ({ name: module.nets[net]!.name, net: map[net]! })),
        message: check.message,
        location: check.location,
        module: module.name,
        index,
        scope: scope.join('.'),
      }),
    );
    after(map);
    if (scope.length === 0) topMap = map;
    for (const [name, index] of clockIndex)
      clockNets.set(map[module.ports.find((port) => port.name === name)!.net]!, index);
    const clockOfNet = new Map(
      [...clockIndex].map(([name, index]) => [module.ports.find((port) => port.name === name)!.net, index]),
    );
    for (const instance of module.instances) {
      const child = moduleByName(design, instance.module);
      const childClocks = clockPortsOf(child);
      work.push({
        module: child,
        scope: [...scope, instance.name],
        clockIndex: new Map(childClocks.map((clock) => [clock, clockOfNet.get(instance.inputs.get(clock) ?? -1) ?? 0])),
        after: (childMap) => {
          for (const port of child.ports) {
            if (childClocks.includes(port.name)) continue;
            if (port.direction === 'input') {
              const source = instance.inputs.get(port.name);
              if (source !== undefined) cells.push(buffer(childMap[port.net]!, map[source]!));
            } else {
              const sink = instance.outputs.get(port.name);
              if (sink !== undefined) cells.push(buffer(map[sink]!, childMap[port.net]!));
            }
          }
        },
      });
    }
  }
  const portMap = (direction: 'input' | 'output'): Map<string, number> =>
    new Map(
      top.ports
        .filter((port) => port.direction === direction && !clocks.includes(port.name))
        .map((port) => [port.name, topMap![port.net]!]),
    );
  return {
    top,
    nets,
    cells,
    registers,
    memories,
    ...(checks.length === 0 ? {} : { checks }),
    clocks,
    clockNets,
    inputs: portMap('input'),
    outputs: portMap('output'),
  };
}

function remapCell(cell: IrCell, map: Int32Array, memoryBase: number): FlatCell {
  const inputs = new Array<number>(cell.inputs.length);
  for (let index = 0; index < inputs.length; index++) inputs[index] = map[cell.inputs[index]!]!;
  // Every cell gets the same fields (unused ones undefined): one object shape keeps V8's accesses fast.
  return {
    op: cell.op,
    output: map[cell.output]!,
    inputs,
    constant: cell.constant,
    hi: cell.hi,
    lo: cell.lo,
    memory: cell.memory === undefined ? undefined : cell.memory + memoryBase,
  };
}

/** A buffer between an instance port and its connection, in the same shape as remapped cells. */
const buffer = (output: number, input: number): FlatCell => ({
  op: 'buf',
  output,
  inputs: [input],
  constant: undefined,
  hi: undefined,
  lo: undefined,
  memory: undefined,
});
