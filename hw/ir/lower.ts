import type { SourceLocation } from '../core/sourceLocation.ts';
import { Value } from '../core/value.ts';
import { Signal, type SignalKind } from '../core/signal.ts';
import { Memory, type ModuleBuilder, type Statement } from '../core/module.ts';
import { UndrivenSignalError } from '../core/errors.ts';
import {
  CLOCK_PORT,
  RESET_PORT,
  type IrCell,
  type IrInstance,
  type IrMemory,
  type IrMemoryWritePort,
  type IrModule,
  type IrNet,
  type IrPort,
  type IrRegister,
  type NetKind,
} from './ir.ts';

const NET_KIND: Record<SignalKind, NetKind> = {
  input: 'input',
  output: 'output',
  wire: 'wire',
  reg: 'reg',
  instanceInput: 'wire',
  instanceOutput: 'wire',
};

/** What `build` made, plus the facts about children the lowering needs. */
export interface LoweringInput {
  readonly builder: ModuleBuilder;
  readonly name: string;
  readonly definition: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly location: SourceLocation;
  readonly ports: readonly Signal[];
  /** The elaborated module name of each instance, in builder order, and whether it is clocked. */
  readonly children: readonly { readonly module: string; readonly clocked: boolean }[];
}

/** Per assigned signal: its current value's net, or undefined where nothing drives it yet. */
type Environment = Map<Signal, number | undefined>;

/**
 * Lowers a built module to IR: expression trees to single-output cells (shared subexpressions
 * once), when/elsewhen/otherwise to mux chains with last-assignment-wins, registers to D/Q pairs.
 * Iterative throughout, so 10^5-deep expression chains do not overflow the stack.
 */
export function lowerModule(input: LoweringInput): IrModule {
  const nets: IrNet[] = [];
  const cells: IrCell[] = [];
  const registers: IrRegister[] = [];
  const netOfSignal = new Map<Signal, number>();
  const netOfValue = new Map<Value, number>();
  const memoryIndex = new Map<Memory, number>();
  const builder = input.builder;

  const addNet = (name: string, width: number, kind: NetKind, location: SourceLocation): number => {
    const id = nets.length;
    nets.push({ id, name, width, kind, location });
    return id;
  };
  const addCell = (cell: Omit<IrCell, 'output'>, width: number): number => {
    const output = addNet(`_n${nets.length}`, width, 'node', cell.location);
    cells.push({ ...cell, output });
    return output;
  };

  const clocked =
    builder.signals.some((signal) => signal.kind === 'reg') ||
    builder.memories.length > 0 ||
    input.children.some((child) => child.clocked);
  const irPorts: IrPort[] = [];
  let clockNet = -1;
  let resetNet = -1;
  if (clocked) {
    clockNet = addNet(CLOCK_PORT, 1, 'input', input.location);
    resetNet = addNet(RESET_PORT, 1, 'input', input.location);
    irPorts.push(
      { name: CLOCK_PORT, direction: 'input', width: 1, net: clockNet },
      { name: RESET_PORT, direction: 'input', width: 1, net: resetNet },
    );
  }
  for (const port of input.ports) {
    const net = addNet(port.name, port.width, NET_KIND[port.kind], port.location);
    netOfSignal.set(port, net);
    irPorts.push({ name: port.name, direction: port.kind === 'input' ? 'input' : 'output', width: port.width, net });
  }
  for (const signal of builder.signals) {
    if (netOfSignal.has(signal)) continue;
    netOfSignal.set(signal, addNet(signal.name, signal.width, NET_KIND[signal.kind], signal.location));
  }
  for (const instance of builder.instances)
    for (const port of instance.ports) netOfSignal.set(port, addNet(port.name, port.width, 'wire', port.location));
  builder.memories.forEach((memory, index) => memoryIndex.set(memory, index));

  const lowerValue = (root: Value): number => {
    const stack: Value[] = [root];
    while (stack.length > 0) {
      const value = stack[stack.length - 1]!;
      if (netOfValue.has(value)) {
        stack.pop();
        continue;
      }
      if (value instanceof Signal) {
        const net = netOfSignal.get(value);
        if (net === undefined)
          throw new UndrivenSignalError(
            value.location,
            `'${value.name}' belongs to another module and cannot be used in ${input.name}`,
          );
        netOfValue.set(value, net);
        stack.pop();
        continue;
      }
      const pending = value.args.filter((arg) => !netOfValue.has(arg));
      if (pending.length > 0) {
        stack.push(...pending);
        continue;
      }
      stack.pop();
      const inputs = value.args.map((arg) => netOfValue.get(arg)!);
      const { constant, hi, lo, target } = value.attributes;
      const memory = target instanceof Memory ? memoryIndex.get(target) : undefined;
      if (target instanceof Memory && memory === undefined)
        throw new UndrivenSignalError(
          value.location,
          `memory '${target.name}' belongs to another module and cannot be read in ${input.name}`,
        );
      const cell: Omit<IrCell, 'output'> = {
        op: value.op === 'ref' ? 'buf' : value.op,
        inputs,
        location: value.location,
        ...(constant === undefined ? {} : { constant }),
        ...(hi === undefined ? {} : { hi, lo: lo! }),
        ...(memory === undefined ? {} : { memory }),
      };
      netOfValue.set(value, addCell(cell, value.width));
    }
    return netOfValue.get(root)!;
  };

  const memoryWrites: IrMemoryWritePort[][] = builder.memories.map(() => []);
  const andConditions = (a: number | undefined, b: number, location: SourceLocation): number =>
    a === undefined ? b : addCell({ op: 'and', inputs: [a, b], location }, 1);
  const notCondition = (a: number, location: SourceLocation): number =>
    addCell({ op: 'not', inputs: [a], location }, 1);

  const whenWhere = new Map<Signal, SourceLocation>();
  const run = (statements: readonly Statement[], environment: Environment, path: number | undefined): void => {
    for (const statement of statements) {
      if (statement.kind === 'assign') {
        environment.set(statement.target, lowerValue(statement.value));
      } else if (statement.kind === 'write') {
        const enable = andConditions(path, lowerValue(statement.enable), statement.location);
        memoryWrites[memoryIndex.get(statement.memory)!]!.push({
          address: lowerValue(statement.address),
          data: lowerValue(statement.data),
          enable,
          location: statement.location,
        });
      } else {
        lowerWhen(statement, environment, path);
      }
    }
  };

  const lowerWhen = (
    statement: Extract<Statement, { kind: 'when' }>,
    environment: Environment,
    path: number | undefined,
  ): void => {
    const results: { condition: number | undefined; environment: Environment }[] = [];
    // notEarlier: all earlier conditions false (undefined = no earlier condition).
    let notEarlier: number | undefined;
    for (const branch of statement.branches) {
      const condition = branch.condition === undefined ? undefined : lowerValue(branch.condition);
      const guard = condition === undefined ? notEarlier : andConditions(notEarlier, condition, statement.location);
      const branchPath = guard === undefined ? path : andConditions(path, guard, statement.location);
      const branchEnvironment: Environment = new Map(environment);
      run(branch.body, branchEnvironment, branchPath);
      results.push({ condition, environment: branchEnvironment });
      if (condition !== undefined)
        notEarlier = andConditions(notEarlier, notCondition(condition, statement.location), statement.location);
    }
    const touched = new Set<Signal>();
    for (const result of results)
      for (const [signal, net] of result.environment) if (environment.get(signal) !== net) touched.add(signal);
    for (const signal of touched) {
      const last = results[results.length - 1]!;
      let value = last.condition === undefined ? last.environment.get(signal) : environment.get(signal);
      for (let index = results.length - 1; index >= 0; index--) {
        const result = results[index]!;
        if (result.condition === undefined) continue;
        const taken = result.environment.get(signal);
        if (taken === value) continue;
        if (taken === undefined || value === undefined) {
          whenWhere.set(signal, statement.location);
          value = undefined;
          break;
        }
        value = addCell(
          { op: 'mux', inputs: [result.condition, taken, value], location: statement.location },
          signal.width,
        );
      }
      environment.set(signal, value);
    }
  };

  const environment: Environment = new Map();
  for (const signal of builder.signals) if (signal.kind === 'reg') environment.set(signal, netOfSignal.get(signal));
  run(builder.statements, environment, undefined);

  const drive = (signal: Signal, what: string): void => {
    const value = environment.get(signal);
    if (value === undefined) {
      const partial = whenWhere.get(signal);
      const detail = partial
        ? `${what} '${signal.name}' is not driven on every path of the when at line ${partial.line} (give it a default assignment first)`
        : `${what} '${signal.name}' is never driven`;
      throw new UndrivenSignalError(signal.location, detail);
    }
    cells.push({ op: 'buf', output: netOfSignal.get(signal)!, inputs: [value], location: signal.location });
  };

  for (const signal of builder.signals) {
    if (signal.kind === 'output') drive(signal, 'output');
    else if (signal.kind === 'wire') drive(signal, 'wire');
    else if (signal.kind === 'reg') {
      const q = netOfSignal.get(signal)!;
      registers.push({
        q,
        d: environment.get(signal)!,
        location: signal.location,
        ...(signal.resetValue === undefined ? {} : { resetValue: signal.resetValue }),
      });
    }
  }

  const instances: IrInstance[] = builder.instances.map((instance, index) => {
    const inputs = new Map<string, number>();
    const outputs = new Map<string, number>();
    if (input.children[index]!.clocked) {
      inputs.set(CLOCK_PORT, clockNet);
      inputs.set(RESET_PORT, resetNet);
    }
    for (const port of instance.ports) {
      const portName = port.instancePort!.port;
      if (port.kind === 'instanceInput') {
        drive(port, `input '${portName}' of instance '${instance.name}':`);
        inputs.set(portName, netOfSignal.get(port)!);
      } else {
        outputs.set(portName, netOfSignal.get(port)!);
      }
    }
    return { name: instance.name, module: input.children[index]!.module, inputs, outputs, location: instance.location };
  });

  const memories: IrMemory[] = builder.memories.map((memory, index) => ({
    name: memory.name,
    width: memory.width,
    depth: memory.depth,
    writePorts: memoryWrites[index]!,
    location: memory.location,
  }));

  return {
    name: input.name,
    definition: input.definition,
    parameters: input.parameters,
    location: input.location,
    ports: irPorts,
    nets,
    cells,
    registers,
    memories,
    instances,
    clocked,
    ...(input.description === undefined ? {} : { description: input.description }),
  };
}
