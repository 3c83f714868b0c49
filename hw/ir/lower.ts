import type { SourceLocation } from '../core/sourceLocation.ts';
import { Value } from '../core/value.ts';
import { Signal, type SignalKind } from '../core/signal.ts';
import { Memory, type ModuleBuilder, type Statement } from '../core/module.ts';
import { UndrivenSignalError } from '../core/errors.ts';
import { enumSignalsOf, type HdlEnum } from '../core/enum.ts';
import {
  CLOCK_PORT,
  RESET_PORT,
  type IrCell,
  type IrCheck,
  type IrDomain,
  type IrEnum,
  type IrInstance,
  type IrMemory,
  type IrMemoryWritePort,
  type IrModule,
  type IrNet,
  type IrPort,
  type IrPrint,
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
  /** The elaborated module name of each instance, in builder order, whether it is clocked and its named domains. */
  readonly children: readonly {
    readonly module: string;
    readonly clocked: boolean;
    readonly domains?: readonly IrDomain[];
  }[];
}

/** Per assigned signal: its current value's net, or undefined where nothing drives it yet. */
type Environment = Map<Signal, number | undefined>;

type WhenStatement = Extract<Statement, { kind: 'when' }>;
type WriteStatement = Extract<Statement, { kind: 'write' }>;
type CheckStatement = Extract<Statement, { kind: 'check' }>;
type PrintStatement = Extract<Statement, { kind: 'print' }>;

/** The inputs of every cell without any (constants): one shared array. */
const NO_INPUTS: readonly number[] = Object.freeze([]);

/** At most this many signals a check reads are reported with its failure. */
const MAX_CHECK_READS = 16;

/**
 * Lowers a built module to IR: expression trees to single-output cells (shared subexpressions
 * once), when/elsewhen/otherwise to mux chains with last-assignment-wins, registers to D/Q pairs.
 * Iterative throughout, so 10^5-deep expression chains do not overflow the stack. Each lowering
 * rule is one method of `ModuleLowering`, called in this order (the order fixes net and cell ids):
 * ports, signals and instance ports become nets; statements run (`assign`, `write`, `when`);
 * outputs and wires get their driving `buf`, registers their D input; instances and memories last.
 */
export function lowerModule(input: LoweringInput): IrModule {
  const lowering = new ModuleLowering(input);
  lowering.declarePorts();
  lowering.declareSignals();
  const environment = lowering.runBody();
  lowering.driveSignals(environment);
  const instances = lowering.lowerInstances(environment);
  return lowering.finish(instances);
}

/** The state of lowering one module: the IR under construction and what each DSL object became. */
class ModuleLowering {
  private readonly nets: IrNet[] = [];
  private readonly cells: IrCell[] = [];
  private readonly registers: IrRegister[] = [];
  private readonly checks: IrCheck[] = [];
  private readonly prints: IrPrint[] = [];
  private readonly ports: IrPort[] = [];
  private readonly netOfSignal = new Map<Signal, number>();
  private readonly netOfValue = new Map<Value, number>();
  private readonly memoryIndex = new Map<Memory, number>();
  private readonly memoryWrites: IrMemoryWritePort[][];
  /** Write-first registered reads: the placeholder cell standing for the read, its memory, address and plain read. */
  private readonly bypasses: {
    cell: number;
    memory: number;
    address: number;
    read: number;
    location: SourceLocation;
  }[] = [];
  /** Signals left undriven on some path of a `when`: that when's location, for the error. */
  private readonly whenWhere = new Map<Signal, SourceLocation>();
  /** Each signal's last assignment: the location of the `buf` that drives it (loop errors cite it). */
  private readonly assignedAt = new Map<Signal, SourceLocation>();
  private readonly builder: ModuleBuilder;
  private readonly clocked: boolean;
  private clockNet = -1;
  private resetNet = -1;
  /** Clock and reset nets of each named domain. */
  private readonly domainNets = new Map<string, { clock: number; reset: number }>();

  constructor(private readonly input: LoweringInput) {
    const builder = (this.builder = input.builder);
    this.clocked =
      builder.signals.some((signal) => signal.kind === 'reg' && !builder.registerDomains.has(signal)) ||
      builder.memories.some((memory) => memory.domain === undefined) ||
      builder.hasPrints ||
      input.children.some((child, index) => child.clocked && builder.instances[index]!.defaultDomain === undefined);
    // A child's named domain not connected explicitly is this module's domain of the same name.
    input.children.forEach((child, index) => {
      const instance = builder.instances[index]!;
      for (const domain of child.domains ?? [])
        if (!instance.domains.has(domain.name)) builder.domainNamed(domain.name, instance.location);
    });
    this.memoryWrites = builder.memories.map(() => []);
  }

  private addNet(name: string, width: number, kind: NetKind, location: SourceLocation, crossing = false): number {
    const id = this.nets.length;
    this.nets.push({ id, name, width, kind, location, ...(crossing ? { crossing: true as const } : {}) });
    return id;
  }

  private addCell(cell: Omit<IrCell, 'output'>, width: number): number {
    const output = this.addNet(`_n${this.nets.length}`, width, 'node', cell.location);
    this.cells.push(irCell(cell.op, cell.inputs, cell.location, output, cell));
    return output;
  }

  /** Rule: ports. A clocked module gets `clk` and `reset` first; then the declared ports, in order. */
  declarePorts(): void {
    if (this.clocked) {
      this.clockNet = this.addNet(CLOCK_PORT, 1, 'input', this.input.location);
      this.resetNet = this.addNet(RESET_PORT, 1, 'input', this.input.location);
      this.ports.push(
        { name: CLOCK_PORT, direction: 'input', width: 1, net: this.clockNet },
        { name: RESET_PORT, direction: 'input', width: 1, net: this.resetNet },
      );
    }
    for (const domain of this.builder.domains) {
      const clock = this.addNet(domain.clock, 1, 'input', domain.location);
      const reset = this.addNet(domain.reset, 1, 'input', domain.location);
      this.domainNets.set(domain.name, { clock, reset });
      this.ports.push(
        { name: domain.clock, direction: 'input', width: 1, net: clock },
        { name: domain.reset, direction: 'input', width: 1, net: reset },
      );
    }
    for (const port of this.input.ports) {
      const net = this.addNet(port.name, port.width, NET_KIND[port.kind], port.location);
      this.netOfSignal.set(port, net);
      this.ports.push({
        name: port.name,
        direction: port.kind === 'input' ? 'input' : 'output',
        width: port.width,
        net,
      });
    }
  }

  /** Rule: wires, registers and instance ports. Each named signal is one net of its own name. */
  declareSignals(): void {
    for (const signal of this.builder.signals) {
      if (this.netOfSignal.has(signal)) continue;
      this.netOfSignal.set(
        signal,
        this.addNet(
          signal.name,
          signal.width,
          NET_KIND[signal.kind],
          signal.location,
          this.builder.crossings.has(signal),
        ),
      );
    }
    for (const instance of this.builder.instances)
      for (const port of instance.ports)
        this.netOfSignal.set(port, this.addNet(port.name, port.width, 'wire', port.location));
    this.builder.memories.forEach((memory, index) => this.memoryIndex.set(memory, index));
  }

  /** Rule: expressions. Every operator node becomes one cell (once, however often it is used), depth first. */
  lowerValue(root: Value): number {
    const stack: Value[] = [root];
    while (stack.length > 0) {
      const value = stack[stack.length - 1]!;
      if (this.netOfValue.has(value)) {
        stack.pop();
        continue;
      }
      if (value instanceof Signal) {
        this.netOfValue.set(value, this.signalNet(value));
        stack.pop();
        continue;
      }
      const pending = value.args.filter((arg) => !this.netOfValue.has(arg));
      if (pending.length > 0) {
        stack.push(...pending);
        continue;
      }
      stack.pop();
      this.netOfValue.set(value, this.bypassed(value, this.addCell(this.cellOf(value), value.width)));
    }
    return this.netOfValue.get(root)!;
  }

  /**
   * Rule: a write-first registered read. Its value is a placeholder `buf` of the plain read, which
   * `lowerBypasses` points at the read routed around every write port once all writes are known.
   */
  private bypassed(value: Value, read: number): number {
    const target = value.attributes.target;
    if (!(target instanceof Memory) || !target.bypasses(value)) return read;
    const output = this.addCell({ op: 'buf', inputs: [read], location: value.location }, value.width);
    this.bypasses.push({
      cell: this.cells.length - 1,
      memory: this.memoryIndex.get(target)!,
      address: this.netOfValue.get(value.args[0]!)!,
      read,
      location: value.location,
    });
    return output;
  }

  /**
   * Rule: read-during-write bypass. For each write-first read, in write-port order, where the port
   * writes the read address, the written lanes replace the word (a later port wins, as in memory).
   */
  private lowerBypasses(): void {
    for (const bypass of this.bypasses) {
      const memory = this.builder.memories[bypass.memory]!;
      const { location } = bypass;
      let word = bypass.read;
      // Past the last word nothing is written and a read is 0: no bypass there.
      const addressWidth = this.nets[bypass.address]!.width;
      const inRange =
        2 ** addressWidth <= memory.depth
          ? undefined
          : this.addCell(
              {
                op: 'ltu',
                inputs: [
                  bypass.address,
                  this.addCell({ op: 'const', inputs: [], constant: BigInt(memory.depth), location }, addressWidth),
                ],
                location,
              },
              1,
            );
      for (const port of this.memoryWrites[bypass.memory]!) {
        const sameAddress = this.addCell({ op: 'eq', inputs: [port.address, bypass.address], location }, 1);
        const enabled = inRange === undefined ? port.enable : this.andConditions(inRange, port.enable, location);
        const hit = this.andConditions(enabled, sameAddress, location);
        if (port.mask === undefined) {
          word = this.addCell({ op: 'mux', inputs: [hit, port.data, word], location }, memory.width);
          continue;
        }
        const g = memory.granularity;
        const lanes = memory.width / g;
        const slice = (net: number, lo: number, width: number): number =>
          width === 1 && this.nets[net]!.width === 1
            ? net
            : this.addCell({ op: 'slice', inputs: [net], hi: lo + width - 1, lo, location }, width);
        const parts: number[] = [];
        for (let lane = lanes - 1; lane >= 0; lane--) {
          const written = this.andConditions(hit, slice(port.mask, lane, 1), location);
          parts.push(
            this.addCell(
              { op: 'mux', inputs: [written, slice(port.data, lane * g, g), slice(word, lane * g, g)], location },
              g,
            ),
          );
        }
        word = parts.length === 1 ? parts[0]! : this.addCell({ op: 'cat', inputs: parts, location }, memory.width);
      }
      const placeholder = this.cells[bypass.cell]!;
      this.cells[bypass.cell] = { ...placeholder, inputs: [word] };
    }
  }

  /** Rule: a signal used in an expression is its net; one of another module is refused. */
  private signalNet(signal: Signal): number {
    const net = this.netOfSignal.get(signal);
    if (net === undefined)
      throw new UndrivenSignalError(
        signal.location,
        `'${signal.name}' belongs to another module and cannot be used in ${this.input.name}`,
      );
    return net;
  }

  /**
   * Rule: one operator node (its operands already lowered) as a cell: the same operator ('ref'
   * becomes 'buf'), with a constant's value, a slice's bounds or a read's memory index.
   */
  private cellOf(value: Value): Omit<IrCell, 'output'> {
    const inputs = value.args.length === 0 ? NO_INPUTS : value.args.map((arg) => this.netOfValue.get(arg)!);
    const { constant, hi, lo, target } = value.attributes;
    const memory = target instanceof Memory ? this.memoryIndex.get(target) : undefined;
    if (target instanceof Memory && memory === undefined)
      throw new UndrivenSignalError(
        value.location,
        `memory '${target.name}' belongs to another module and cannot be read in ${this.input.name}`,
      );
    return { op: value.op === 'ref' ? 'buf' : value.op, inputs, location: value.location, constant, hi, lo, memory };
  }

  private andConditions(a: number | undefined, b: number, location: SourceLocation): number {
    return a === undefined ? b : this.addCell({ op: 'and', inputs: [a, b], location }, 1);
  }

  private notCondition(a: number, location: SourceLocation): number {
    return this.addCell({ op: 'not', inputs: [a], location }, 1);
  }

  /** Runs the module body from the registers' own values (a register not assigned holds). */
  runBody(): Environment {
    const environment: Environment = new Map();
    for (const signal of this.builder.signals)
      if (signal.kind === 'reg') environment.set(signal, this.netOfSignal.get(signal));
    this.lowerStatements(this.builder.statements, environment, undefined);
    return environment;
  }

  /** Rule: a statement list, in order; `path` is the condition under which it runs (undefined: always). */
  private lowerStatements(statements: readonly Statement[], environment: Environment, path: number | undefined): void {
    for (const statement of statements) {
      if (statement.kind === 'assign')
        this.lowerAssign(statement.target, statement.value, environment, statement.location);
      else if (statement.kind === 'write') this.lowerWrite(statement, path);
      else if (statement.kind === 'check') this.lowerCheck(statement, path);
      else if (statement.kind === 'print') this.lowerPrint(statement, path);
      else this.lowerWhen(statement, environment, path);
    }
  }

  /** Rule: assignment. The target's current value becomes the assigned one (last assignment wins). */
  private lowerAssign(target: Signal, value: Value, environment: Environment, location: SourceLocation): void {
    environment.set(target, this.lowerValue(value));
    this.assignedAt.set(target, location);
  }

  /** Rule: memory write. A write port whose enable is the statement's enable and the enclosing path. */
  private lowerWrite(statement: WriteStatement, path: number | undefined): void {
    const enable = this.andConditions(path, this.lowerValue(statement.enable), statement.location);
    this.memoryWrites[this.memoryIndex.get(statement.memory)!]!.push({
      address: this.lowerValue(statement.address),
      data: this.lowerValue(statement.data),
      enable,
      ...(statement.mask === undefined ? {} : { mask: this.lowerValue(statement.mask) }),
      location: statement.location,
    });
  }

  /**
   * Rule: assert/assume/cover. The condition under the enclosing path: `!path || condition` for
   * assert and assume (vacuous where the branch is not taken), `path && condition` for cover.
   */
  private lowerCheck(statement: CheckStatement, path: number | undefined): void {
    const location = statement.location;
    const condition = this.lowerValue(statement.condition);
    const guarded =
      path === undefined
        ? condition
        : statement.check === 'cover'
          ? this.andConditions(path, condition, location)
          : this.addCell({ op: 'or', inputs: [this.notCondition(path, location), condition], location }, 1);
    this.checks.push({
      kind: statement.check,
      condition: guarded,
      message: statement.message,
      reads: this.signalsRead(statement.condition),
      location,
    });
  }

  /** Rule: printf. It prints where its condition holds and the enclosing path is taken. */
  private lowerPrint(statement: PrintStatement, path: number | undefined): void {
    this.prints.push({
      condition: this.andConditions(path, this.lowerValue(statement.condition), statement.location),
      format: statement.format,
      args: statement.values.map((value) => this.lowerValue(value)),
      location: statement.location,
    });
  }

  /** The named signals an expression reads (first MAX_CHECK_READS, in first-seen order). */
  private signalsRead(root: Value): number[] {
    const seen = new Set<Value>();
    const nets: number[] = [];
    const stack: Value[] = [root];
    while (stack.length > 0 && nets.length < MAX_CHECK_READS) {
      const value = stack.pop()!;
      if (seen.has(value)) continue;
      seen.add(value);
      if (value instanceof Signal) {
        const net = this.netOfSignal.get(value);
        if (net !== undefined && !nets.includes(net)) nets.push(net);
        continue;
      }
      for (let index = value.args.length - 1; index >= 0; index--) stack.push(value.args[index]!);
    }
    return nets;
  }

  /**
   * Rule: when/elsewhen/otherwise. Each branch runs on a copy of the environment under its guard
   * (its condition and no earlier one); then every signal a branch changed is merged.
   */
  private lowerWhen(statement: WhenStatement, environment: Environment, path: number | undefined): void {
    const results: BranchResult[] = [];
    // notEarlier: all earlier conditions false (undefined = no earlier condition).
    let notEarlier: number | undefined;
    for (const branch of statement.branches) {
      const condition = branch.condition === undefined ? undefined : this.lowerValue(branch.condition);
      const guard =
        condition === undefined ? notEarlier : this.andConditions(notEarlier, condition, statement.location);
      const branchPath = guard === undefined ? path : this.andConditions(path, guard, statement.location);
      const branchEnvironment: Environment = new Map(environment);
      this.lowerStatements(branch.body, branchEnvironment, branchPath);
      results.push({ condition, environment: branchEnvironment });
      if (condition !== undefined)
        notEarlier = this.andConditions(
          notEarlier,
          this.notCondition(condition, statement.location),
          statement.location,
        );
    }
    const touched = new Set<Signal>();
    for (const result of results)
      for (const [signal, net] of result.environment) if (environment.get(signal) !== net) touched.add(signal);
    for (const signal of touched) environment.set(signal, this.mergeBranches(signal, results, environment, statement));
  }

  /**
   * Rule: the value of one signal after a `when` chain: a mux per conditional branch, the last
   * branch innermost; the fallback is the otherwise branch's value, else the value before the chain.
   * Undefined (recorded for the error) where some path leaves the signal undriven.
   */
  private mergeBranches(
    signal: Signal,
    results: readonly BranchResult[],
    before: Environment,
    statement: WhenStatement,
  ): number | undefined {
    const last = results[results.length - 1]!;
    let value = last.condition === undefined ? last.environment.get(signal) : before.get(signal);
    for (let index = results.length - 1; index >= 0; index--) {
      const result = results[index]!;
      if (result.condition === undefined) continue;
      const taken = result.environment.get(signal);
      if (taken === value) continue;
      if (taken === undefined || value === undefined) {
        this.whenWhere.set(signal, statement.location);
        return undefined;
      }
      value = this.addCell(
        { op: 'mux', inputs: [result.condition, taken, value], location: statement.location },
        signal.width,
      );
    }
    return value;
  }

  /** Rule: a combinational signal (output, wire, instance input) is a `buf` from its final value. */
  private drive(signal: Signal, environment: Environment, what: string): void {
    const value = environment.get(signal);
    if (value === undefined) {
      const partial = this.whenWhere.get(signal);
      const detail = partial
        ? `${what} '${signal.name}' is not driven on every path of the when at line ${partial.line} (give it a default assignment first)`
        : `${what} '${signal.name}' is never driven`;
      // A signal driven on some paths only: the `when` that leaves it undriven made the mistake.
      throw new UndrivenSignalError(partial ?? signal.location, detail);
    }
    const location = this.assignedAt.get(signal) ?? signal.location;
    this.cells.push({ op: 'buf', output: this.netOfSignal.get(signal)!, inputs: [value], location });
  }

  /** Rules: outputs and wires get their `buf`; registers their D input (and reset value), in declaration order. */
  driveSignals(environment: Environment): void {
    for (const signal of this.builder.signals) {
      if (signal.kind === 'output') this.drive(signal, environment, 'output');
      else if (signal.kind === 'wire') this.drive(signal, environment, 'wire');
      else if (signal.kind === 'reg') this.lowerRegister(signal, environment);
    }
  }

  /** Rule: register. Q is the register's net, D its value after the body (itself when never assigned). */
  private lowerRegister(signal: Signal, environment: Environment): void {
    const domain = this.builder.registerDomains.get(signal);
    const assigned = this.assignedAt.get(signal);
    this.registers.push({
      q: this.netOfSignal.get(signal)!,
      d: environment.get(signal)!,
      location: signal.location,
      ...(signal.resetValue === undefined ? {} : { resetValue: signal.resetValue }),
      ...(domain ? { domain: domain.name } : {}),
      ...(assigned ? { assigned } : {}),
    });
  }

  /** Rule: instance. Clock and reset passed to a clocked child; inputs driven like wires; outputs are nets. */
  lowerInstances(environment: Environment): IrInstance[] {
    return this.builder.instances.map((instance, index) => {
      const child = this.input.children[index]!;
      const inputs = new Map<string, number>();
      const outputs = new Map<string, number>();
      if (child.clocked) {
        const nets = instance.defaultDomain ? this.domainNets.get(instance.defaultDomain.name)! : undefined;
        inputs.set(CLOCK_PORT, nets ? nets.clock : this.clockNet);
        inputs.set(RESET_PORT, nets ? nets.reset : this.resetNet);
      }
      for (const domain of child.domains ?? []) {
        const parent = instance.domains.get(domain.name)?.name ?? domain.name;
        const nets = this.domainNets.get(parent)!;
        inputs.set(domain.clock, nets.clock);
        inputs.set(domain.reset, nets.reset);
      }
      for (const port of instance.ports) {
        const portName = port.instancePort!.port;
        if (port.kind === 'instanceInput') {
          this.drive(port, environment, `input '${portName}' of instance '${instance.name}':`);
          inputs.set(portName, this.netOfSignal.get(port)!);
        } else {
          outputs.set(portName, this.netOfSignal.get(port)!);
        }
      }
      return { name: instance.name, module: child.module, inputs, outputs, location: instance.location };
    });
  }

  /** Rule: memory. Its shape and the write ports its `write` statements made, in statement order. */
  private lowerMemories(): IrMemory[] {
    return this.builder.memories.map((memory, index) => {
      const writePorts = this.memoryWrites[index]!;
      return {
        name: memory.name,
        width: memory.width,
        depth: memory.depth,
        writePorts,
        ...(writePorts.some((port) => port.mask !== undefined) ? { granularity: memory.granularity } : {}),
        ...(memory.init === undefined ? {} : { init: memory.init }),
        location: memory.location,
        ...(memory.domain ? { domain: memory.domain.name } : {}),
      };
    });
  }

  /** The module: everything lowered so far. */
  finish(instances: IrInstance[]): IrModule {
    this.lowerBypasses();
    const input = this.input;
    return {
      name: input.name,
      definition: input.definition,
      parameters: input.parameters,
      location: input.location,
      ports: this.ports,
      nets: this.nets,
      cells: this.cells,
      registers: this.registers,
      memories: this.lowerMemories(),
      instances,
      clocked: this.clocked,
      ...this.lowerDomains(),
      ...(this.checks.length === 0 ? {} : { checks: this.checks }),
      ...(this.prints.length === 0 ? {} : { prints: this.prints }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...this.lowerEnums(),
    };
  }

  /** Rule: named clock domains, in declaration order (those children brought up after). */
  private lowerDomains(): { domains?: IrDomain[] } {
    if (this.builder.domains.length === 0) return {};
    return {
      domains: this.builder.domains.map((domain) => ({
        name: domain.name,
        clock: domain.clock,
        reset: domain.reset,
        resetKind: domain.resetKind,
      })),
    };
  }

  /** Rule: enum-typed signals keep their type's value names, grouped by type (declaration order). */
  private lowerEnums(): { enums?: IrEnum[] } {
    const byType = new Map<HdlEnum, { signals: string[]; transitions: Record<string, [string, string][]> }>();
    for (const { signal, type, transitions } of enumSignalsOf(this.builder)) {
      const entry = byType.get(type) ?? { signals: [], transitions: {} };
      byType.set(type, entry);
      entry.signals.push(signal.name);
      if (transitions === undefined) continue;
      // Each move once, in the order first made; staying put is no transition.
      const moves = new Map(
        transitions.filter(([from, to]) => from !== to).map(([from, to]) => [`${from}->${to}`, [from, to]] as const),
      );
      entry.transitions[signal.name] = [...moves.values()].map(([from, to]) => [from, to]);
    }
    if (byType.size === 0) return {};
    return {
      enums: [...byType].map(([type, { signals, transitions }]) => ({
        name: type.name,
        width: type.width,
        values: type.names.map((name) => ({ name, code: type.codes[name]! })),
        signals,
        ...(Object.keys(transitions).length === 0 ? {} : { transitions }),
      })),
    };
  }
}

/**
 * A cell as one of four fixed object literals (the same keys, in the same order, as ever: the
 * attributes its operator has, then `output`). Cells built by spreading partial objects each got
 * a hidden class of its own from V8 once the spread site had seen many shapes: ~400 bytes per cell
 * at 10^5 cells, more than the cells themselves.
 */
function irCell(
  op: IrCell['op'],
  inputs: readonly number[],
  location: SourceLocation,
  output: number,
  attributes: Pick<IrCell, 'constant' | 'hi' | 'lo' | 'memory'>,
): IrCell {
  const { constant, hi, lo, memory } = attributes;
  if (constant !== undefined) return { op, inputs, location, constant, output };
  if (hi !== undefined) return { op, inputs, location, hi, lo: lo!, output };
  if (memory !== undefined) return { op, inputs, location, memory, output };
  return { op, inputs, location, output };
}

/** What one branch of a `when` chain made: its condition (undefined for otherwise) and environment. */
interface BranchResult {
  readonly condition: number | undefined;
  readonly environment: Environment;
}
