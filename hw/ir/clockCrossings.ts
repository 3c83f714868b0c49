import { ClockCrossingError } from '../core/errors.ts';
import type { SourceLocation } from '../core/sourceLocation.ts';
import { RESET_PORT, clockOfDomain, clockPortsOf, type IrModule } from './ir.ts';

/**
 * What reaches a net combinationally: state of each clock (clock port → the register or memory
 * that is its example, for the message) and the module's inputs.
 */
interface Sources {
  readonly clocks: ReadonlyMap<string, string>;
  readonly inputs: ReadonlySet<string>;
}

/** A module seen from its parent: what feeds each output, and which clocks' state each input feeds. */
export interface CrossingSummary {
  readonly outputs: ReadonlyMap<string, Sources>;
  readonly inputSinks: ReadonlyMap<string, ReadonlySet<string>>;
}

const NONE: Sources = { clocks: new Map(), inputs: new Set() };

function union(parts: readonly Sources[]): Sources {
  if (parts.length === 1) return parts[0]!;
  const clocks = new Map<string, string>();
  const inputs = new Set<string>();
  for (const part of parts) {
    for (const [clock, example] of part.clocks) if (!clocks.has(clock)) clocks.set(clock, example);
    for (const input of part.inputs) inputs.add(input);
  }
  return { clocks, inputs };
}

/**
 * The clock-domain crossing check of one module (its children already summarized): a register or
 * memory write of one clock whose next value depends combinationally on state of another clock is
 * a ClockCrossingError at the line that assigned it (for an instance input: the line that drove
 * it). Paths through a net marked with `m.crossing` (synchronizer inputs, Gray-coded FIFO
 * pointers) are intended and stop the search; inputs of the module are not clocked here, so their
 * crossings are judged where the parent drives them. Returns the module's summary for its parents.
 */
export function checkClockCrossings(module: IrModule, children: ReadonlyMap<string, CrossingSummary>): CrossingSummary {
  const clockPorts = new Set(clockPortsOf(module));
  const resetPorts = new Set([RESET_PORT, ...(module.domains ?? []).map((domain) => domain.reset)]);
  const clockOfNet = new Map<number, string>();
  for (const port of module.ports) if (clockPorts.has(port.name)) clockOfNet.set(port.net, port.name);
  const registerClock = new Map<number, string>();
  for (const register of module.registers) registerClock.set(register.q, clockOfDomain(module, register.domain));
  const driver = new Map<number, number>();
  module.cells.forEach((cell, index) => driver.set(cell.output, index));
  const instanceOutput = new Map<number, { instance: number; port: string }>();
  module.instances.forEach((instance, index) => {
    for (const [port, net] of instance.outputs) instanceOutput.set(net, { instance: index, port });
  });
  const inputNets = new Map<number, string>();
  for (const port of module.ports)
    if (port.direction === 'input' && !clockPorts.has(port.name) && !resetPorts.has(port.name))
      inputNets.set(port.net, port.name);

  /** A child's clock port as this module's clock port (undefined: not connected to one). */
  const parentClock = (instance: number, childClock: string): string | undefined => {
    const net = module.instances[instance]!.inputs.get(childClock);
    return net === undefined ? undefined : clockOfNet.get(net);
  };

  /** The nets a net's value depends on combinationally, and the sources it adds itself. */
  const dependencies = (net: number): { nets: number[]; own: Sources } => {
    if (module.nets[net]?.crossing) return { nets: [], own: NONE };
    const clock = registerClock.get(net);
    if (clock !== undefined)
      return { nets: [], own: { clocks: new Map([[clock, `'${module.nets[net]!.name}'`]]), inputs: new Set() } };
    const input = inputNets.get(net);
    if (input !== undefined) return { nets: [], own: { clocks: new Map(), inputs: new Set([input]) } };
    const cellIndex = driver.get(net);
    if (cellIndex !== undefined) {
      const cell = module.cells[cellIndex]!;
      if (cell.op !== 'memread') return { nets: [...cell.inputs], own: NONE };
      const memory = module.memories[cell.memory!]!;
      return {
        nets: [...cell.inputs],
        own: {
          clocks: new Map([[clockOfDomain(module, memory.domain), `memory '${memory.name}'`]]),
          inputs: new Set(),
        },
      };
    }
    const output = instanceOutput.get(net);
    if (output !== undefined) {
      const instance = module.instances[output.instance]!;
      const summary = children.get(instance.module)?.outputs.get(output.port) ?? NONE;
      const clocks = new Map<string, string>();
      for (const [childClock, example] of summary.clocks) {
        const clock = parentClock(output.instance, childClock);
        if (clock !== undefined && !clocks.has(clock)) clocks.set(clock, example.replace(/'/, `'${instance.name}.`));
      }
      const nets = [...summary.inputs].flatMap((port) => {
        const source = instance.inputs.get(port);
        return source === undefined ? [] : [source];
      });
      return { nets, own: { clocks, inputs: new Set() } };
    }
    return { nets: [], own: NONE };
  };

  const memo = new Map<number, Sources>();
  /** Iterative post-order, so 10^5-deep expression chains do not overflow the stack. */
  const sourcesOf = (root: number): Sources => {
    const stack: { net: number; deps?: { nets: number[]; own: Sources } }[] = [{ net: root }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (memo.has(top.net)) {
        stack.pop();
        continue;
      }
      if (!top.deps) {
        top.deps = dependencies(top.net);
        for (const net of top.deps.nets) if (!memo.has(net)) stack.push({ net });
        continue;
      }
      stack.pop();
      memo.set(top.net, union([top.deps.own, ...top.deps.nets.map((net) => memo.get(net) ?? NONE)]));
    }
    return memo.get(root)!;
  };

  const inputSinks = new Map<string, Set<string>>();
  const sink = (net: number, clocks: ReadonlySet<string>, what: string, location: SourceLocation): void => {
    const sources = sourcesOf(net);
    for (const [clock, example] of sources.clocks)
      for (const target of clocks)
        if (clock !== target)
          throw new ClockCrossingError(
            location,
            `${what} (clock ${target}) depends combinationally on ${example} (clock ${clock}) in ${module.name}: a clock-domain crossing without a synchronizer (use Synchronizer or AsyncFifo from hw/lib/cdc, or mark an intended crossing with m.crossing)`,
          );
    for (const input of sources.inputs) {
      const sinks = inputSinks.get(input) ?? new Set<string>();
      for (const target of clocks) sinks.add(target);
      inputSinks.set(input, sinks);
    }
  };

  for (const register of module.registers)
    sink(
      register.d,
      new Set([clockOfDomain(module, register.domain)]),
      `register '${module.nets[register.q]!.name}'`,
      register.assigned ?? register.location,
    );
  for (const memory of module.memories)
    for (const port of memory.writePorts)
      for (const net of [port.address, port.data, port.enable])
        sink(net, new Set([clockOfDomain(module, memory.domain)]), `a write of memory '${memory.name}'`, port.location);
  module.instances.forEach((instance, index) => {
    const summary = children.get(instance.module);
    if (!summary) return;
    for (const [port, childClocks] of summary.inputSinks) {
      const net = instance.inputs.get(port);
      if (net === undefined) continue;
      const clocks = new Set([...childClocks].flatMap((clock) => parentClock(index, clock) ?? []));
      const cell = driver.get(net);
      const location = cell === undefined ? instance.location : module.cells[cell]!.location;
      sink(net, clocks, `input '${port}' of instance '${instance.name}'`, location);
    }
  });
  const outputs = new Map<string, Sources>();
  for (const port of module.ports) if (port.direction === 'output') outputs.set(port.name, sourcesOf(port.net));
  return { outputs, inputSinks };
}
