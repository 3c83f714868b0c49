import type { IrCheck, IrDesign, IrInstance, IrModule, IrPrint } from '../ir/ir.ts';
import { placedPrints } from '../ir/prints.ts';
import { moduleByName, topModule, clockOfDomain, clockPortsOf, RESET_PORT } from '../ir/ir.ts';
import type { SourceLocation } from '../core/sourceLocation.ts';
import { FlatCells, FlatNets, type FlatInstance } from './flatNetlist.ts';

export { FlatCells, FlatNets, type FlatCell, type FlatInstance, type FlatNet } from './flatNetlist.ts';

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
  /** Its value at the start of a run (IrRegister.initial; absent: 0). */
  readonly initial?: bigint;
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
  /**
   * Index in FlatDesign.clocks of its module's clock: it is checked only in steps where that clock
   * rises (its cycles, as the Verilog's `always @(posedge clk)` block sees them); -1 for a
   * combinational module, checked in every step.
   */
  readonly clock: number;
  readonly reads: readonly { readonly name: string; readonly net: number }[];
  readonly message: string;
  readonly location: SourceLocation;
  readonly module: string;
  readonly index: number;
  /** Instance path, dotted, '' for the top. */
  readonly scope: string;
}

/** A printf of one instance (hw/ir IrPrint), on flat nets. */
export interface FlatPrint {
  readonly condition: number;
  /** Its module's reset net: nothing prints while it is high. */
  readonly reset: number;
  /** Index in FlatDesign.clocks of its module's clock: it prints in steps where that clock rises. */
  readonly clock: number;
  readonly format: IrPrint['format'];
  readonly args: readonly { readonly net: number; readonly width: number }[];
  /** Instance path, dotted, '' for the top. */
  readonly scope: string;
}

/** The whole design as one module: what the simulator compiles. */
export interface FlatDesign {
  readonly top: IrModule;
  readonly nets: FlatNets;
  readonly cells: FlatCells;
  readonly registers: FlatRegister[];
  readonly memories: FlatMemory[];
  /** Checks of every instance (absent or empty: none). */
  readonly checks?: readonly FlatCheck[];
  /** Printfs of every instance in print order (hw/ir/prints.ts, placedPrints); absent or empty: none. */
  readonly prints?: readonly FlatPrint[];
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
 * buffers between the parent's net and the child's port net, so both names stay visible. Each
 * instance's nets are one contiguous range, its module's net k at the instance's base + k.
 */
export function flattenDesign(design: IrDesign): FlatDesign {
  const top = topModule(design);
  const size = flatSizes(design);
  const total = size(top);
  const cells = new FlatCells(total.cells, total.inputs);
  const instances: FlatInstance[] = [];
  const registers: FlatRegister[] = [];
  const memories: FlatMemory[] = [];
  const checks: FlatCheck[] = [];
  /** Each instance's prints by `<scope> <index>`, put in print order at the end. */
  const prints = new Map<string, FlatPrint>();
  const clocks = clockPortsOf(top);
  // Each clock's reset input at the top: an asynchronous reset acts before anything settles.
  const topResetNets = clocks.map((clock) => {
    const reset =
      clock === clocks[0] && top.clocked ? RESET_PORT : top.domains!.find((domain) => domain.clock === clock)!.reset;
    return top.ports.find((port) => port.name === reset)!.net;
  });
  const clockNets = new Map<number, number>();
  let netCount = 0;
  const work: {
    module: IrModule;
    scope: string[];
    after: (base: number) => void;
    /** The module's clock ports → index in `clocks`. */
    clockIndex: ReadonlyMap<string, number>;
  }[] = [
    { module: top, scope: [], after: () => {}, clockIndex: new Map(clocks.map((clock, index) => [clock, index])) },
  ];
  while (work.length > 0) {
    const { module, scope, after, clockIndex } = work.pop()!;
    const clockOf = (domain: string | undefined): number => clockIndex.get(clockOfDomain(module, domain)) ?? 0;
    const asyncDomains = new Set(
      (module.domains ?? []).filter((domain) => domain.resetKind === 'async').map((domain) => domain.name),
    );
    const base = netCount;
    instances.push({ scope, module, base });
    netCount += module.nets.length;
    const memoryBase = memories.length;
    for (const memory of module.memories)
      memories.push({
        scope,
        name: memory.name,
        width: memory.width,
        depth: memory.depth,
        writePorts: memory.writePorts.map((port) => ({
          address: base + port.address,
          data: base + port.data,
          enable: base + port.enable,
          ...(port.mask === undefined ? {} : { mask: base + port.mask }),
        })),
        granularity: memory.granularity ?? 1,
        ...(memory.init === undefined ? {} : { init: memory.init }),
        clock: clockOf(memory.domain),
      });
    for (const cell of module.cells)
      cells.add(
        cell.op,
        base + cell.output,
        cell.inputs,
        base,
        cell.constant,
        cell.hi,
        cell.lo,
        cell.memory === undefined ? undefined : cell.memory + memoryBase,
      );
    const resetPort = module.ports.find((port) => port.name === 'reset' && module.clocked);
    for (const register of module.registers) {
      const clock = clockOf(register.domain);
      const asyncReset = register.domain !== undefined && asyncDomains.has(register.domain);
      const domainReset =
        register.domain === undefined
          ? resetPort?.net
          : module.ports.find((port) => port.name === module.domains!.find((d) => d.name === register.domain)!.reset)!
              .net;
      registers.push({
        q: base + register.q,
        d: base + register.d,
        reset:
          register.resetValue === undefined || domainReset === undefined
            ? -1
            : asyncReset
              ? topResetNets[clock]!
              : base + domainReset,
        resetValue: register.resetValue ?? 0n,
        clock,
        asyncReset: asyncReset && register.resetValue !== undefined,
        ...(register.initial === undefined ? {} : { initial: register.initial }),
      });
    }
    (module.checks ?? []).forEach((check, index) =>
      checks.push({
        kind: check.kind,
        condition: base + check.condition,
        reset: resetPort ? base + resetPort.net : -1,
        clock: module.clocked ? clockOf(undefined) : -1,
        reads: check.reads.map((net) => ({ name: module.nets[net]!.name, net: base + net })),
        message: check.message,
        location: check.location,
        module: module.name,
        index,
        scope: scope.join('.'),
      }),
    );
    (module.prints ?? []).forEach((print, index) =>
      prints.set(`${scope.join('.')} ${index}`, {
        condition: base + print.condition,
        reset: base + resetPort!.net,
        clock: clockOf(undefined),
        format: print.format,
        args: print.args.map((net) => ({ net: base + net, width: module.nets[net]!.width })),
        scope: scope.join('.'),
      }),
    );
    after(base);
    for (const [name, index] of clockIndex)
      clockNets.set(base + module.ports.find((port) => port.name === name)!.net, index);
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
        after: (childBase) => {
          for (const port of child.ports) {
            if (childClocks.includes(port.name)) continue;
            if (port.direction === 'input') {
              const source = instance.inputs.get(port.name);
              if (source !== undefined) cells.add('buf', childBase + port.net, [base + source]);
            } else {
              const sink = instance.outputs.get(port.name);
              if (sink !== undefined) cells.add('buf', base + sink, [childBase + port.net]);
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
        .map((port) => [port.name, port.net]),
    );
  return {
    top,
    nets: new FlatNets(instances),
    cells,
    registers,
    memories,
    ...(checks.length === 0 ? {} : { checks }),
    ...(prints.size === 0
      ? {}
      : { prints: placedPrints(design).map(({ scope, index }) => prints.get(`${scope} ${index}`)!) }),
    clocks,
    clockNets,
    inputs: portMap('input'),
    outputs: portMap('output'),
  };
}

/** The buffers that connect an instance's ports (all but the clocks, where the parent connects them). */
function bufferCount(child: IrModule, instance: IrInstance): number {
  let count = 0;
  const clocks = clockPortsOf(child);
  for (const port of child.ports)
    if (
      !clocks.includes(port.name) &&
      (port.direction === 'input' ? instance.inputs.has(port.name) : instance.outputs.has(port.name))
    )
      count++;
  return count;
}

/** Cells and cell inputs of a module once flattened (memoized per module), to size the arrays exactly. */
function flatSizes(design: IrDesign): (module: IrModule) => { cells: number; inputs: number } {
  const sizes = new Map<string, { cells: number; inputs: number }>();
  const size = (module: IrModule): { cells: number; inputs: number } => {
    const known = sizes.get(module.name);
    if (known) return known;
    let cells = module.cells.length;
    let inputs = 0;
    for (const cell of module.cells) inputs += cell.inputs.length;
    for (const instance of module.instances) {
      const child = moduleByName(design, instance.module);
      const inner = size(child);
      const buffers = bufferCount(child, instance);
      cells += inner.cells + buffers;
      inputs += inner.inputs + buffers;
    }
    const result = { cells, inputs };
    sizes.set(module.name, result);
    return result;
  };
  return size;
}
