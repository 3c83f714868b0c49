/**
 * `coruscant-hdl/ir`: elaboration of a module definition into the flat netlist IR that every
 * backend (simulator, Verilog, synthesis) reads.
 */
export {
  /** Runs a module definition (and everything it instantiates) with parameters and returns the checked netlist, top last. */
  elaborate,
  /** The Verilog/IR module name of a parameter set: the plain name for the defaults, else `Name_key_value…`. */
  moduleNameFor,
} from '../hw/ir/elaborate.ts';
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
} from '../hw/ir/ir.ts';
