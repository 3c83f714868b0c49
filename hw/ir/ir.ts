import type { SourceLocation } from '../core/sourceLocation.ts';
import type { Operator } from '../core/value.ts';
import type { PortTypes } from '../core/ports.ts';
import type { PrintSegment } from '../core/printFormat.ts';

/**
 * The flat netlist IR, separate from the DSL objects (Amaranth's NIR idea): per module, arrays of
 * nets and single-output cells; hierarchy kept as instances; every net named once, uniquely.
 * Immutable throughout: a transform pass returns a new module (hw/ir/passes/pass.ts), so the module
 * a check saw stays as it was. `printModule`/`printDesign` (print.ts) show it as text.
 */

/** Cell operators: the DSL operators less 'ref' (named references become nets) plus 'buf'. */
export type CellOp = Exclude<Operator, 'ref'> | 'buf';

/**
 * input/output: ports; wire/reg: user-named signals; node: an unnamed intermediate (given a
 * generated name, `_n<id>`, removable by passes).
 */
export type NetKind = 'input' | 'output' | 'wire' | 'reg' | 'node';

export interface IrNet {
  readonly id: number;
  readonly name: string;
  readonly width: number;
  readonly kind: NetKind;
  readonly location: SourceLocation;
  /** An intended clock-domain crossing (`m.crossing`): the crossing check stops here. */
  readonly crossing?: true;
}

export interface IrCell {
  readonly op: CellOp;
  readonly output: number;
  readonly inputs: readonly number[];
  /** op 'const' */
  readonly constant?: bigint;
  /** op 'slice': bits hi..lo of input 0 */
  readonly hi?: number;
  readonly lo?: number;
  /** op 'memread': index into the module's memories; input 0 is the address */
  readonly memory?: number;
  readonly location: SourceLocation;
}

/**
 * A D flip-flop bank on the module's clock (or a named domain's); active-high reset when
 * resetValue is set, synchronous unless its domain's reset is asynchronous.
 */
export interface IrRegister {
  readonly q: number;
  readonly d: number;
  readonly resetValue?: bigint;
  readonly location: SourceLocation;
  /** The named clock domain (IrModule.domains); absent: the default `clk`/`reset`. */
  readonly domain?: string;
  /** Where its next value was last assigned (the crossing check reports it). */
  readonly assigned?: SourceLocation;
  /**
   * Its value at the start of a run (absent: 0): set only by random initial state
   * (hw/ir/randomInit.ts) on registers without a reset value; simulation only.
   */
  readonly initial?: bigint;
}

export interface IrMemoryWritePort {
  readonly address: number;
  readonly data: number;
  readonly enable: number;
  /** Lane mask net (`width / granularity` bits): only lanes whose bit is 1 are written (absent: all). */
  readonly mask?: number;
  readonly location: SourceLocation;
}

/**
 * A memory of any depth: combinational reads (memread cells; an address past the last word reads
 * 0), writes at the clock edge in port order (a later port wins; past the last word: none).
 * Registered reads are registers fed by memread cells (write-first ones through a bypass of the
 * write ports, built by lowering).
 */
export interface IrMemory {
  readonly name: string;
  readonly width: number;
  readonly depth: number;
  readonly writePorts: readonly IrMemoryWritePort[];
  /** Bits per mask bit of masked write ports (present when some port has a mask). */
  readonly granularity?: number;
  /** Contents at the start, `depth` words (absent: all 0). */
  readonly init?: readonly bigint[];
  readonly location: SourceLocation;
  /** The named clock domain its writes happen in; absent: the default clock. */
  readonly domain?: string;
}

/**
 * A named clock domain of a module (hw/core `m.domain`): its clock and reset are input ports of
 * their own (`clk_<name>`, `rst_<name>`), passed down to the children that use it. An asynchronous
 * reset acts as soon as it is high (`always @(posedge clk or posedge rst)`).
 */
export interface IrDomain {
  readonly name: string;
  readonly clock: string;
  readonly reset: string;
  readonly resetKind: 'sync' | 'async';
}

export interface IrInstance {
  readonly name: string;
  readonly module: string;
  /** child input port name → net in this module driving it */
  readonly inputs: ReadonlyMap<string, number>;
  /** child output port name → net in this module it drives */
  readonly outputs: ReadonlyMap<string, number>;
  readonly location: SourceLocation;
}

/**
 * An assertion, assumption or cover point (hw/core `m.assert`/`m.assume`/`m.cover`), checked at
 * every clock edge while `reset` is low (combinational modules: every evaluation). `condition`
 * is a 1-bit net already combined with the enclosing `when` path: for assert/assume it holds where
 * the branch is not taken, for cover it is false there. `reads` are the named nets the condition
 * reads (reported with a failure); backends and passes keep all of them.
 */
export interface IrCheck {
  readonly kind: 'assert' | 'assume' | 'cover';
  readonly condition: number;
  /** The assertion's message, or the cover point's name. */
  readonly message: string;
  readonly reads: readonly number[];
  readonly location: SourceLocation;
}

/**
 * A printf (hw/core `m.printf`): at each rising edge of the module's default clock while `reset`
 * is low, where `condition` (already combined with the enclosing `when` path) is 1, one line of
 * `format` filled with the values of `args`, as they were before the edge. Only clocked modules
 * have prints (a printf makes its module clocked).
 */
export interface IrPrint {
  readonly condition: number;
  readonly format: readonly PrintSegment[];
  readonly args: readonly number[];
  readonly location: SourceLocation;
}

export interface IrPort {
  readonly name: string;
  readonly direction: 'input' | 'output';
  readonly width: number;
  readonly net: number;
}

export interface IrModule {
  readonly name: string;
  readonly description?: string;
  /** The definition and parameters that made this module (for the manifest and `gen list`). */
  readonly definition: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly location: SourceLocation;
  /** Ports in declaration order; `clk` and `reset` come first when the module is clocked. */
  readonly ports: readonly IrPort[];
  readonly nets: readonly IrNet[];
  readonly cells: readonly IrCell[];
  readonly registers: readonly IrRegister[];
  readonly memories: readonly IrMemory[];
  readonly instances: readonly IrInstance[];
  /** True when the module has registers, memory writes or clocked children in the default domain (`clk`/`reset`). */
  readonly clocked: boolean;
  /** Named clock domains, their ports after `clk`/`reset` (absent: the default domain only). */
  readonly domains?: readonly IrDomain[];
  /** Assertions, assumptions and cover points in statement order (absent: none). */
  readonly checks?: readonly IrCheck[];
  /** Printfs in statement order (absent: none). */
  readonly prints?: readonly IrPrint[];
  /** Enum types of this module's signals (hw/core/enum.ts), for Verilog localparams and wave labels (absent: none). */
  readonly enums?: readonly IrEnum[];
  /**
   * A black box (hw/core/blackBox.ts): the Verilog backends use `verilog` (the user's file) for
   * this module instead of generated text; the IR above is its behavioural model when `model`,
   * else only its ports (the in-process engine refuses it).
   */
  readonly blackBox?: { readonly file: string; readonly model: boolean; readonly verilog: string };
}

/** An enum type and the named signals of one module that hold it. */
export interface IrEnum {
  readonly name: string;
  readonly width: number;
  readonly values: readonly { readonly name: string; readonly code: bigint }[];
  /** Names of the nets (wires, registers) of this type. */
  readonly signals: readonly string[];
  /**
   * Per state register of an `fsm` or an `enumReg` declared with transitions: the `from -> to`
   * moves it may make between value names, self-loops left out (absent: none declared).
   */
  readonly transitions?: Readonly<Record<string, readonly (readonly [string, string])[]>>;
}

/** Carries a design's port types for the compiler alone; no design object has this key. */
declare const PORT_TYPES: unique symbol;

/**
 * A whole elaborated design: modules ordered children first, the top last. `Ports` is the top's
 * ports as TypeScript knows them (from `elaborate`), so testbenches and suites accept only those
 * names; a design built any other way has any name, checked when it runs.
 */
export interface IrDesign<Ports extends PortTypes = PortTypes> {
  readonly top: string;
  readonly modules: readonly IrModule[];
  readonly [PORT_TYPES]?: Ports;
}

export const CLOCK_PORT = 'clk';
export const RESET_PORT = 'reset';

/** The default domain's name where domains are named (instance maps, messages). */
export const DEFAULT_DOMAIN = 'default';

/** Every clock input of a module: `clk` when clocked, then each named domain's clock. */
export function clockPortsOf(module: IrModule): string[] {
  return [...(module.clocked ? [CLOCK_PORT] : []), ...(module.domains ?? []).map((domain) => domain.clock)];
}

/** Every reset input of a module: `reset` when clocked, then each named domain's reset. */
export function resetPortsOf(module: IrModule): string[] {
  return [...(module.clocked ? [RESET_PORT] : []), ...(module.domains ?? []).map((domain) => domain.reset)];
}

/** The clock port of a register's or memory's domain (undefined: the default). */
export function clockOfDomain(module: IrModule, domain: string | undefined): string {
  if (domain === undefined) return CLOCK_PORT;
  const found = module.domains?.find((candidate) => candidate.name === domain);
  if (!found) throw new Error(`internal: no domain ${domain} in module ${module.name}`);
  return found.clock;
}

/** The module of a design by name. */
export function moduleByName(design: IrDesign, name: string): IrModule {
  const found = design.modules.find((module) => module.name === name);
  if (!found) throw new Error(`internal: no module ${name} in design ${design.top}`);
  return found;
}

/** One instance of a module in a design: the module and its instance path from the top ('' for the top). */
export interface PlacedModule {
  readonly module: IrModule;
  readonly scope: string;
}

/**
 * Every instance of every module of the design, depth first from the top: an instance before its
 * children, children in declaration order (the order checks, printfs and coverage goals follow).
 */
export function placedModules(design: IrDesign): PlacedModule[] {
  const placed: PlacedModule[] = [];
  const visit = (name: string, scope: string): void => {
    const module = moduleByName(design, name);
    placed.push({ module, scope });
    for (const instance of module.instances)
      visit(instance.module, scope === '' ? instance.name : `${scope}.${instance.name}`);
  };
  visit(design.top, '');
  return placed;
}

/** The top module of a design. */
export function topModule(design: IrDesign): IrModule {
  return moduleByName(design, design.top);
}
