import { captureSourceLocation, type SourceLocation } from './sourceLocation.ts';
import { Value, checkWidth, constant, maskOf } from './value.ts';
import { Signal, type AssignmentSink } from './signal.ts';
import { mapPorts, type IoOf, type PortTree } from './ports.ts';
import { DuplicateNameError, InvalidParameterError, MultipleDriverError, WidthMismatchError } from './errors.ts';
import {
  MAX_MEMORY_DEPTH,
  Memory,
  givenWords,
  memoryShape,
  type MemoryOptions,
  type MemoryWrite,
  type RomOptions,
} from './memory.ts';

import { ClockDomain } from './domain.ts';
import { Property, Sequence, seq } from './temporal.ts';
import { propertyHolds, sequenceMatch } from './temporalMonitor.ts';
import { quoteValue } from '../../common/optionValues.ts';
import { parsePrintFormat, printDirectives, type PrintSegment } from './printFormat.ts';

export { Memory } from './memory.ts';
export { ClockDomain } from './domain.ts';

/** A ROM's depth when not given: the number of its initial words (read once to count them). */
function romDepth(name: string, options: RomOptions, location: SourceLocation): number {
  checkWidth(options.width, location);
  return Math.max(1, givenWords(name, options.init, MAX_MEMORY_DEPTH, options.width, location).length);
}

/** The implicit clock and reset of clocked modules. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(['clk', 'reset']);

/** The name that stands for the default domain in instance domain maps (not a domain name). */
const DEFAULT_DOMAIN_NAME = 'default';

/** Parameters of a generator: plain data, so a parameter set names its module deterministically. */
export type Params = Readonly<Record<string, number | boolean | string>>;

/**
 * The brand every module definition carries. A registered symbol (`Symbol.for`), so a definition
 * made by one copy of the framework (a user's project, a second install) is still recognized by
 * another: recognize definitions with isModuleDefinition, never with instanceof.
 */
export const MODULE_DEFINITION: unique symbol = Symbol.for('coruscant-hdl.moduleDefinition');

/**
 * A hardware generator: ports and body as functions of parameters. Each distinct parameter set
 * elaborates to its own module, named `Name` for the defaults and `Name_k_v…` otherwise.
 *
 * The functions are declared as methods, so a `ModuleDefinition<{ width: number }, …>` is a
 * `ModuleDefinition` (a registry, an instance list or a config holds any definition with no cast).
 */
export interface ModuleDefinition<P extends Params = Params, T extends PortTree = PortTree> {
  readonly [MODULE_DEFINITION]: true;
  readonly name: string;
  readonly description?: string;
  readonly defaults: P;
  /** Documents each parameter for `gen list` and the docs. */
  readonly parameterDocs?: { readonly [K in keyof P]?: string };
  /** Rejects parameter sets the generator cannot build (return a message), before elaboration. */
  validate?(params: P): string | undefined;
  ports(params: P): T;
  build(m: ModuleBuilder, io: IoOf<T>, params: P): void;
  readonly location: SourceLocation;
}

/** Whether `value` is a module definition (made by defineModule of any copy of the framework). */
export function isModuleDefinition(value: unknown): value is ModuleDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[MODULE_DEFINITION] === true &&
    typeof (value as { name?: unknown }).name === 'string'
  );
}

/**
 * What defineModule is given: a definition without its brand and location. Function properties
 * (not methods) here, so the parameter type is inferred from `defaults` alone.
 */
export interface ModuleSpec<P extends Params, T extends PortTree> {
  readonly name: string;
  readonly description?: string;
  readonly defaults: P;
  readonly parameterDocs?: { readonly [K in keyof P]?: string };
  readonly validate?: (params: P) => string | undefined;
  readonly ports: (params: P) => T;
  readonly build: (m: ModuleBuilder, io: IoOf<T>, params: P) => void;
}

/** Declares a hardware generator. */
export function defineModule<P extends Params, T extends PortTree>(
  definition: ModuleSpec<P, T>,
): ModuleDefinition<P, T> {
  const made = { ...definition, [MODULE_DEFINITION]: true as const, location: captureSourceLocation() };
  checkModuleDefinition(made);
  return made;
}

/** A name a module, signal, port, instance or memory may have: a plain Verilog identifier. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a definition must have beside its name, for messages: field → what it is. */
const REQUIRED_FIELDS = [
  ['defaults', 'object', 'its parameters and their default values, `{}` for none'],
  ['ports', 'function', '(params) => ({ name: input(w) | output(w), … })'],
  ['build', 'function', '(m, io, params) => { … }'],
] as const;

/**
 * Refuses a definition whose name could not be a Verilog module and file name (`../x`, `a b`, ``)
 * or that lacks a field, at the line that defines it: the name later names files (`<name>.v`,
 * build-cache entries), so it is checked before any path is formed from it. defineModule checks its
 * own; elaborate checks again, for definitions copied with a new name or made by another copy of
 * the framework.
 */
export function checkModuleDefinition(definition: ModuleDefinition): void {
  const { name, location } = definition;
  if (typeof name !== 'string' || !IDENTIFIER.test(name))
    throw new InvalidParameterError(
      location,
      `module name ${quoteValue(name)} is not a valid name (letters, digits, _; not starting with a digit)`,
    );
  for (const [field, type, shape] of REQUIRED_FIELDS) {
    const value: unknown = definition[field];
    if (typeof value !== type || value === null || Array.isArray(value))
      throw new InvalidParameterError(location, `module ${name} needs \`${field}\`: ${shape}`);
  }
}

/** An unconditional or conditional assignment, a memory write, or a when/elsewhen/otherwise chain. */
export type Statement =
  | { readonly kind: 'assign'; readonly target: Signal; readonly value: Value; readonly location: SourceLocation }
  | MemoryWrite
  | {
      readonly kind: 'when';
      readonly branches: { condition: Value | undefined; body: Statement[] }[];
      readonly location: SourceLocation;
    }
  | {
      readonly kind: 'check';
      readonly check: CheckKind;
      readonly condition: Value;
      /** The assertion's message, or the cover point's name. */
      readonly message: string;
      readonly location: SourceLocation;
    }
  | {
      readonly kind: 'print';
      readonly condition: Value;
      readonly format: readonly PrintSegment[];
      readonly values: readonly Value[];
      readonly location: SourceLocation;
    };

/**
 * assert: must hold at every clock edge outside reset (combinational modules: every evaluation);
 * assume: the same, but a constraint on the environment (formal proofs take it as given); cover:
 * a condition some stimulus should reach. Inside a `when`, each applies only when its branch is taken.
 */
export type CheckKind = 'assert' | 'assume' | 'cover';

/** A `when` chain under construction: add `elsewhen` branches and an `otherwise`. */
export class WhenChain {
  constructor(
    private readonly builder: ModuleBuilder,
    private readonly statement: Extract<Statement, { kind: 'when' }>,
  ) {}

  /** Another condition, tested when all earlier ones are false. */
  elsewhen(condition: Value, body: () => void): WhenChain {
    this.builder.addBranch(this.statement, condition, body);
    return this;
  }

  /** The branch taken when no condition holds. */
  otherwise(body: () => void): void {
    this.builder.addBranch(this.statement, undefined, body);
  }
}

/** A sub-module placed in a parent: its definition, parameters and the parent-side port signals. */
export interface InstanceRecord {
  readonly name: string;
  readonly definition: ModuleDefinition;
  readonly params: Params;
  readonly ports: readonly Signal[];
  readonly location: SourceLocation;
  /** The parent domain the child's default `clk`/`reset` connect to (undefined: the parent's default). */
  readonly defaultDomain?: ClockDomain;
  /** Child domain name → the parent domain it connects to (unlisted ones: the parent's domain of the same name). */
  readonly domains: ReadonlyMap<string, ClockDomain>;
}

/**
 * What a module's `build` function receives: makes wires, registers, memories and instances, and
 * records assignments in the current `when` context.
 */
export class ModuleBuilder implements AssignmentSink {
  readonly signals: Signal[] = [];
  readonly memories: Memory[] = [];
  readonly instances: InstanceRecord[] = [];
  readonly statements: Statement[] = [];
  /** Named clock domains in declaration order (m.domain, and those children bring up). */
  readonly domains: ClockDomain[] = [];
  /** Domain of each register made outside the default domain. */
  readonly registerDomains = new Map<Signal, ClockDomain>();
  /** Named wires marked as intended clock-domain crossings (m.crossing). */
  readonly crossings = new Set<Signal>();
  private currentDomain: ClockDomain | undefined;
  private current: Statement[] = this.statements;
  private readonly names = new Map<string, SourceLocation>();
  private readonly unconditional = new Map<Signal, SourceLocation>();
  private readonly coverNames = new Set<string>();
  private pastCount = 0;
  /** Whether the module has a printf: it prints at clock edges, so the module gets a clock. */
  hasPrints = false;

  constructor(readonly moduleName: string) {}

  /** A named combinational signal; drive it with `set`. */
  wire<W extends number>(name: string, width: W): Signal<W> {
    const location = captureSourceLocation();
    checkWidth(width, location);
    return this.addSignal(new Signal(name, width, 'wire', this, location));
  }

  /**
   * A named clock domain with inputs `clk_<name>` and `rst_<name>` (ClockDomain); `reset: 'async'`
   * makes its registers reset as soon as the reset is high.
   */
  domain(name: string, options: { reset?: 'sync' | 'async' } = {}): ClockDomain {
    const location = captureSourceLocation();
    const resetKind = options.reset ?? 'sync';
    if (resetKind !== 'sync' && resetKind !== 'async')
      throw new InvalidParameterError(location, `domain reset must be 'sync' or 'async', got ${String(resetKind)}`);
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name) || name === DEFAULT_DOMAIN_NAME)
      throw new InvalidParameterError(
        location,
        `'${name}' is not a valid domain name (letters, digits, _; not '${DEFAULT_DOMAIN_NAME}')`,
      );
    const existing = this.domains.find((domain) => domain.name === name);
    if (existing)
      throw new DuplicateNameError(
        location,
        `domain '${name}' is already declared in module ${this.moduleName} (at line ${existing.location.line})`,
      );
    const domain = new ClockDomain(name, resetKind, location);
    this.claimName(domain.clock, location, true);
    this.claimName(domain.reset, location, true);
    this.domains.push(domain);
    return domain;
  }

  /**
   * Registers, memories and instances made in `body` are in `domain` (an instance's default
   * `clk`/`reset` connect to it, as with Chisel's withClockAndReset); returns what `body` returns.
   */
  withDomain<R>(domain: ClockDomain, body: () => R): R {
    this.ownDomain(domain, captureSourceLocation());
    const saved = this.currentDomain;
    this.currentDomain = domain;
    try {
      return body();
    } finally {
      this.currentDomain = saved;
    }
  }

  /**
   * Names `value` as an intended clock-domain crossing: a register of another domain may sample it
   * without the crossing error (synchronizer inputs, Gray-coded FIFO pointers).
   */
  crossing<W extends number>(name: string, value: Value<W>): Signal<W> {
    const location = captureSourceLocation();
    const wire = this.addSignal(new Signal(name, value.width, 'wire', this, location));
    this.recordAssignment(wire, value, location);
    this.crossings.add(wire);
    return wire;
  }

  private ownDomain(domain: ClockDomain, location: SourceLocation): void {
    if (!(domain instanceof ClockDomain) || !this.domains.includes(domain))
      throw new InvalidParameterError(
        location,
        `domain ${domain instanceof ClockDomain ? `'${domain.name}'` : String(domain)} does not belong to module ${this.moduleName} (declare it with m.domain)`,
      );
  }

  /**
   * A register on the module clock (or `domain`'s, or the one `withDomain` set); `reset` (if
   * given) is its value after reset (synchronous, or asynchronous in an async domain).
   */
  reg<W extends number>(
    name: string,
    width: W,
    options: { reset?: number | bigint; domain?: ClockDomain } = {},
  ): Signal<W> {
    const location = captureSourceLocation();
    checkWidth(width, location);
    const domain = options.domain ?? this.currentDomain;
    if (options.domain) this.ownDomain(options.domain, location);
    let resetValue: bigint | undefined;
    if (options.reset !== undefined) {
      resetValue = BigInt(options.reset);
      if (resetValue < 0n || resetValue > maskOf(width))
        throw new WidthMismatchError(location, `reset value ${options.reset} does not fit in ${width} bits`);
    }
    const signal = this.addSignal(new Signal(name, width, 'reg', this, location, resetValue));
    if (domain) this.registerDomains.set(signal, domain);
    return signal;
  }

  /** Names an expression: a wire driven by it, so it shows up in Verilog and waveforms. */
  named<W extends number>(name: string, value: Value<W>): Signal<W> {
    const location = captureSourceLocation();
    const wire = this.addSignal(new Signal(name, value.width, 'wire', this, location));
    this.recordAssignment(wire, value, location);
    return wire;
  }

  /**
   * A memory of `depth` words (any depth from 1 to 2^20) of `width` bits, optionally with initial
   * contents (`init`: words or a hex file), a write-mask granularity and the read-during-write
   * behaviour of its registered reads (see MemoryOptions); written in `domain` (default: the
   * current one, see withDomain).
   */
  memory(name: string, options: MemoryOptions): Memory {
    const location = captureSourceLocation();
    if (options.domain) this.ownDomain(options.domain, location);
    const domain = options.domain ?? this.currentDomain;
    const shape = memoryShape(name, options, location);
    this.claimName(name, location);
    const memory = new Memory(name, options.width, options.depth, this, location, {
      ...shape,
      ...(domain ? { domain } : {}),
    });
    this.memories.push(memory);
    return memory;
  }

  /**
   * A read-only memory: `init` (words or a hex file) is its contents, `depth` defaults to their
   * number; `write` on it is an error at the write's line.
   */
  rom(name: string, options: RomOptions): Memory {
    const location = captureSourceLocation();
    if (options.init === undefined)
      throw new InvalidParameterError(location, `ROM '${name}' needs its contents (init: words or a hex file)`);
    const depth = options.depth ?? romDepth(name, options, location);
    const shape = memoryShape(name, { width: options.width, depth, init: options.init }, location);
    this.claimName(name, location);
    const domain = this.currentDomain;
    const memory = new Memory(name, options.width, depth, this, location, {
      ...shape,
      readOnly: true,
      ...(domain ? { domain } : {}),
    });
    this.memories.push(memory);
    return memory;
  }

  /**
   * Places a sub-module; returns its ports: drive its inputs with `set`, read its outputs. Its
   * default clock is this module's current domain; `domains` connects its named domains to this
   * module's (Amaranth's DomainRenamer); a child domain not listed connects to the domain of the
   * same name here, declared on first use.
   */
  instance<P extends Params, T extends PortTree>(
    definition: ModuleDefinition<P, T>,
    options: { name?: string; params?: Partial<P>; domains?: Readonly<Record<string, ClockDomain>> } = {},
  ): IoOf<T> {
    const location = captureSourceLocation();
    const domains = new Map<string, ClockDomain>();
    for (const [childDomain, domain] of Object.entries(options.domains ?? {})) {
      this.ownDomain(domain, location);
      domains.set(childDomain, domain);
    }
    const name =
      options.name ?? `${definition.name.charAt(0).toLowerCase()}${definition.name.slice(1)}_${this.instances.length}`;
    this.claimName(name, location);
    const params = { ...definition.defaults, ...(options.params ?? {}) } as P;
    const ports: Signal[] = [];
    const io = mapPorts(definition.ports(params), (portName, spec) => {
      const kind = spec.direction === 'input' ? 'instanceInput' : 'instanceOutput';
      this.claimName(`${name}_${portName}`, location);
      const signal = new Signal(`${name}_${portName}`, spec.width, kind, this, location, undefined, {
        instance: name,
        port: portName,
      });
      ports.push(signal);
      return signal;
    });
    this.instances.push({
      name,
      definition,
      params,
      ports,
      location,
      domains,
      ...(this.currentDomain ? { defaultDomain: this.currentDomain } : {}),
    });
    return io;
  }

  /** Assignments inside `body` take effect only when `condition` (1 bit) holds. */
  when(condition: Value, body: () => void): WhenChain {
    const location = captureSourceLocation();
    const statement: Extract<Statement, { kind: 'when' }> = { kind: 'when', branches: [], location };
    this.current.push(statement);
    const chain = new WhenChain(this, statement);
    this.addBranch(statement, condition, body);
    return chain;
  }

  /** @internal used by WhenChain */
  addBranch(statement: Extract<Statement, { kind: 'when' }>, condition: Value | undefined, body: () => void): void {
    const location = captureSourceLocation();
    if (condition && condition.width !== 1)
      throw new WidthMismatchError(
        location,
        `a when condition must be 1 bit, got ${condition.width} bits (use orReduce() or a comparison)`,
      );
    if (statement.branches.some((branch) => branch.condition === undefined))
      throw new InvalidParameterError(location, 'no branch may follow otherwise()');
    const branch = { condition, body: [] as Statement[] };
    statement.branches.push(branch);
    const saved = this.current;
    this.current = branch.body;
    try {
      body();
    } finally {
      this.current = saved;
    }
  }

  /** @internal called by Signal.set */
  recordAssignment(target: Signal, value: Value, location: SourceLocation): void {
    if (value.width !== target.width)
      throw new WidthMismatchError(
        location,
        `cannot assign a ${value.width}-bit value to '${target.name}' (${target.width} bits); use zext/sext/trunc`,
      );
    if (this.current === this.statements) {
      const previous = this.unconditional.get(target);
      if (previous)
        throw new MultipleDriverError(
          location,
          `'${target.name}' already has an unconditional driver (at line ${previous.line}); a signal has one driver`,
        );
      this.unconditional.set(target, location);
    }
    this.current.push({ kind: 'assign', target, value, location });
  }

  /** @internal called by Memory.write */
  recordWrite(statement: MemoryWrite): void {
    this.current.push(statement);
  }

  /** @internal the builder's own ports, made during elaboration */
  addPort<W extends number>(
    name: string,
    width: W,
    direction: 'input' | 'output',
    location: SourceLocation,
  ): Signal<W> {
    return this.addSignal(new Signal(name, width, direction, this, location));
  }

  /**
   * An invariant: `condition` (1 bit) holds at every clock edge outside reset (see CheckKind). A
   * temporal Property (`seq(a).implies(delay([1, 3], b))`) fails in the cycle an attempt can no
   * longer succeed; a Sequence must match from every cycle (hw/core/temporal.ts).
   */
  assert(condition: Value | Sequence | Property, message: string): void {
    const location = captureSourceLocation();
    this.recordCheck('assert', this.propertyBit(condition), message, location);
  }

  /** A constraint on the inputs: formal proofs take it as given; simulation reports a violation. Takes what assert takes. */
  assume(condition: Value | Sequence | Property, message: string): void {
    const location = captureSourceLocation();
    this.recordCheck('assume', this.propertyBit(condition), message, location);
  }

  /**
   * A cover point: `gen prove` says whether some stimulus reaches `condition`; simulation counts
   * hits. For a Sequence, a hit is a cycle in which a match of it ends.
   */
  cover(condition: Value | Sequence, name: string): void {
    const location = captureSourceLocation();
    if (condition instanceof Property)
      throw new InvalidParameterError(location, `cover '${name}' takes a Value or a Sequence, not an implication`);
    if (condition instanceof Sequence) condition = sequenceMatch(this, condition);
    if (!IDENTIFIER.test(name))
      throw new InvalidParameterError(location, `cover name '${name}' is not a valid name (letters, digits, _)`);
    if (this.coverNames.has(name))
      throw new DuplicateNameError(location, `cover point '${name}' is already declared in module ${this.moduleName}`);
    this.coverNames.add(name);
    this.recordCheck('cover', condition, name, location);
  }

  /**
   * `value` as it was `cycles` clock edges ago: a chain of registers updated on every edge whatever
   * the enclosing `when`, reset to 0 (so in the cycles after reset, and at the start, it reads 0:
   * `past(start)` is never a start seen during reset). Makes the module clocked.
   */
  past<W extends number>(value: Value<W>, cycles = 1): Value<W> {
    const location = captureSourceLocation();
    if (!Number.isInteger(cycles) || cycles < 1 || cycles > 64)
      throw new InvalidParameterError(location, `past() needs a whole number of cycles from 1 to 64, got ${cycles}`);
    let current: Value<W> = value;
    const saved = this.current;
    this.current = this.statements;
    try {
      for (let step = 1; step <= cycles; step++) {
        let name = `past${this.pastCount}_${step}`;
        while (this.names.has(name)) name = `${name}_`;
        const register = this.addSignal(new Signal(name, value.width, 'reg', this, location, 0n)) as Signal<W>;
        this.current.push({ kind: 'assign', target: register, value: current, location });
        current = register;
      }
    } finally {
      this.current = saved;
    }
    this.pastCount++;
    return current;
  }

  /** `value` (1 bit) went from 0 to 1 at the last edge: `value && !past(value)`. */
  rose(value: Value): Value<1> {
    return this.oneBit(value, 'rose').and(this.past(value).not()) as Value<1>;
  }

  /** `value` (1 bit) went from 1 to 0 at the last edge: `!value && past(value)`. */
  fell(value: Value): Value<1> {
    return this.oneBit(value, 'fell').not().and(this.past(value)) as Value<1>;
  }

  /** `value` is what it was one edge ago. */
  stable(value: Value): Value<1> {
    return value.eq(this.past(value));
  }

  /** `value` differs from what it was one edge ago (SVA `$changed`). */
  changed(value: Value): Value<1> {
    return this.stable(value).not();
  }

  /** The monitor bit of a temporal check (temporalMonitor.ts); a Value as it is. */
  private propertyBit(condition: Value | Sequence | Property): Value {
    if (condition instanceof Property) return propertyHolds(this, condition);
    if (condition instanceof Sequence) return propertyHolds(this, new Property(seq(constant(1, 1)), condition));
    return condition;
  }

  private oneBit(value: Value, what: string): Value {
    if (value.width !== 1)
      throw new WidthMismatchError(captureSourceLocation(), `${what}() needs a 1-bit value, got ${value.width} bits`);
    return value;
  }

  private recordCheck(kind: CheckKind, condition: Value, message: string, location: SourceLocation): void {
    if (!(condition instanceof Value))
      throw new WidthMismatchError(location, `${kind} needs a 1-bit hardware value as its condition`);
    if (condition.width !== 1)
      throw new WidthMismatchError(
        location,
        `${kind} condition must be 1 bit, got ${condition.width} bits (use orReduce() or a comparison)`,
      );
    if (typeof message !== 'string' || message.length === 0)
      throw new InvalidParameterError(location, `${kind} needs a message`);
    this.current.push({ kind: 'check', check: kind, condition, message, location });
  }

  /**
   * Prints one line at each rising clock edge (outside reset) where `condition` (1 bit, under the
   * enclosing `when`) holds, with the values before the edge, as Chisel's printf does: `format`
   * in the language of hw/core/printFormat.ts (`%d %i %x %b`, `%0d`, `%8d`), one value per
   * directive. Every engine prints the same text; lines of one cycle come in declaration order.
   */
  printf(condition: Value, format: string, ...values: Value[]): void {
    const location = captureSourceLocation();
    if (!(condition instanceof Value) || condition.width !== 1)
      throw new WidthMismatchError(
        location,
        `printf needs a 1-bit condition (m.lit(1, 1) to print every cycle), got ${condition instanceof Value ? `${condition.width} bits` : quoteValue(condition)}`,
      );
    if (typeof format !== 'string') throw new InvalidParameterError(location, 'printf needs a format string');
    let segments: PrintSegment[];
    try {
      segments = parsePrintFormat(format);
    } catch (error) {
      throw new InvalidParameterError(location, `printf format ${JSON.stringify(format)}: ${(error as Error).message}`);
    }
    const directives = printDirectives(segments).length;
    if (directives !== values.length)
      throw new InvalidParameterError(
        location,
        `printf format ${JSON.stringify(format)} has ${directives} directive${directives === 1 ? '' : 's'} but ${values.length} value${values.length === 1 ? '' : 's'} follow`,
      );
    values.forEach((value, index) => {
      if (!(value instanceof Value))
        throw new InvalidParameterError(
          location,
          `printf value ${index + 1} is not a hardware value (m.lit for a constant): ${quoteValue(value)}`,
        );
    });
    this.hasPrints = true;
    this.current.push({ kind: 'print', condition, format: segments, values, location });
  }

  /** A literal of `width` bits. */
  lit<W extends number>(value: number | bigint, width: W): Value<W> {
    return constant(value, width);
  }

  private addSignal<S extends Signal>(signal: S): S {
    this.claimName(signal.name, signal.location);
    this.signals.push(signal);
    return signal;
  }

  /**
   * @internal the domain of this name a child brings up (lowering): the declared one, else a
   * new synchronous one (its reset kind matters only to the registers of the child that declared it).
   */
  domainNamed(name: string, location: SourceLocation): ClockDomain {
    const existing = this.domains.find((domain) => domain.name === name);
    if (existing) return existing;
    const domain = new ClockDomain(name, 'sync', location);
    this.claimName(domain.clock, location, true);
    this.claimName(domain.reset, location, true);
    this.domains.push(domain);
    return domain;
  }

  private claimName(name: string, location: SourceLocation, domainPort = false): void {
    if (!domainPort && this.domains.some((domain) => domain.clock === name || domain.reset === name))
      throw new DuplicateNameError(
        location,
        `'${name}' is the clock or reset of a domain of module ${this.moduleName}`,
      );
    if (RESERVED_NAMES.has(name))
      throw new DuplicateNameError(location, `'${name}' is reserved for the implicit clock and reset`);
    if (!IDENTIFIER.test(name))
      throw new InvalidParameterError(
        location,
        `${quoteValue(name)} is not a valid name (letters, digits, _; not starting with a digit)`,
      );
    const previous = this.names.get(name);
    if (previous)
      throw new DuplicateNameError(
        location,
        `'${name}' is already declared in module ${this.moduleName} (at line ${previous.line})`,
      );
    this.names.set(name, location);
  }
}
