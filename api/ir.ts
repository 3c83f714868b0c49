/**
 * `coruscant-hdl/ir`: elaboration of a module definition into the flat netlist IR that every
 * backend (simulator, Verilog, synthesis) reads.
 */
export {
  /** Runs a module definition (and everything it instantiates) with parameters and returns the checked netlist, top last. */
  elaborate,
  /** The Verilog/IR module name of a parameter set: the plain name for the defaults, else `Name_key_value…`; a keyword gets `_v`. */
  moduleNameFor,
  /** How deep instances may nest (512); deeper is an `InvalidParameterError` at the instance's line. */
  MAX_HIERARCHY_DEPTH,
  /** Options of `elaborate`: the pass list to run (default `PASSES`). */
  type ElaborateOptions,
} from '../hw/ir/elaborate.ts';
export {
  /** The ordered pass list `elaborate` runs: checks (widths, drivers, loops), then transforms, then naming. */
  PASSES,
  /** A new pass list with your pass placed before or after a named one: `elaborate(def, params, { passes })`. */
  insertPass,
  /** A pass: a check (throws an `HdlError` at the user's line) or a transform (returns a new module). */
  type Pass,
  /** A pass that reads a module and throws when it is wrong. */
  type CheckPass,
  /** A pass that returns a new module (never mutates its input). */
  type TransformPass,
  /** What a pass may ask about the rest of the design (child modules, combinational paths). */
  type PassContext,
  /** Where `insertPass` puts a pass: `{ before: name }` or `{ after: name }`. */
  type PassPosition,
} from '../hw/ir/passes/index.ts';
export {
  /** A whole design as readable text, one line per net and cell (`locations: true` adds `@ file:line`). */
  printDesign,
  /** One module as readable text. */
  printModule,
  /** Options of the printers. */
  type PrintOptions,
} from '../hw/ir/print.ts';
export {
  /** An elaborated design: its modules, children first, and the name of the top. */
  type IrDesign,
  /** One module of the netlist: ports, nets, cells, registers, memories, instances. */
  type IrModule,
  /** A port of an IR module (name, direction, width). */
  type IrPort,
  /** A net: a numbered wire of a width, with its kind and source location. */
  type IrNet,
  /** A cell: one operator with input nets and an output net. */
  type IrCell,
  /** A register: next-value net, reset value, output net. */
  type IrRegister,
  /** A memory with its read and write ports. */
  type IrMemory,
  /** A synchronous write port of a memory. */
  type IrMemoryWritePort,
  /** An instance of a child module and its port connections. */
  type IrInstance,
  /** The operators a cell can hold. */
  type CellOp,
  /** What a net is: input, output, wire, register or an internal node. */
  type NetKind,
  /** The name of the implicit clock port (`clk`). */
  CLOCK_PORT,
  /** The name of the synchronous active-high reset input (`reset`). */
  RESET_PORT,
  /** The top module of a design. */
  topModule,
  /** A module of a design by name. */
  moduleByName,
  /** A printf of a module: its condition net, parsed format and argument nets. */
  type IrPrint,
} from '../hw/ir/ir.ts';
export {
  /** One line a printf printed: the cycle whose edge printed it, the instance path, and the text. */
  type PrintedLine,
  /** A printed line as `gen sim` shows it: `[cycle] text`, or `[cycle] a.b: text` below the top. */
  formatPrintedLine,
} from '../hw/ir/prints.ts';
export {
  /** The state a run starts from: `'zero'` (default) or `{ random: seed }` for registers without a reset and memories without init. */
  type InitialState,
  /** The design as a run with that initial state starts it (random: a copy with start values, one per design and seed). */
  withInitialState,
  /** Parses `zero`, `random` or `random:<seed>` (the `--init` flag); `random` alone takes the fresh seed given. */
  parseInitialState,
  /** The deepest memory random initial state fills (65,536 words); a deeper one is an error. */
  RANDOM_INIT_MAX_DEPTH,
} from '../hw/ir/randomInit.ts';
