/**
 * `coruscant-hdl`: the hardware description DSL. Define modules with typed ports, build them
 * from values, registers, memories and instances; elaborate them with `coruscant-hdl/ir`.
 */
export {
  /** Defines a parameterized hardware module: its name, parameter defaults, ports and `build(m, io, p)`. */
  defineModule,
  /** What `build` receives as `m`: makes wires, registers, memories, instances and `when` blocks; `m.printf(cond, fmt, …values)` prints at clock edges on every engine. */
  ModuleBuilder,
  /** A memory made by `m.memory(name, { depth, width, granularity?, init?, readDuringWrite? })` or `m.rom(name, { width, init })`: `read` (combinational, 0 past the last word), `readSync` (registered, read-first or write-first), `write(addr, data, enable, mask?)` at the clock edge. */
  Memory,
  /** The chain returned by `m.when(...)`: `.elsewhen(...)`, `.otherwise(...)`. */
  WhenChain,
  /** A named clock domain made by `m.domain(name, { reset })`: its own `clk_<name>` and `rst_<name>` inputs, sync or async reset. */
  ClockDomain,
  /** A module definition as `defineModule` returns it (name, defaults, ports, build). */
  type ModuleDefinition,
  /** A module's parameter values: numbers, booleans or strings by name. */
  type Params,
} from '../hw/core/index.ts';
export {
  /** Parses a printf format (`%d %i %x %b`, `%0d`, `%8d`, `%%`; docs/dsl.md); throws on anything else. */
  parsePrintFormat,
  /** A parsed format filled with values of given widths: the exact text every engine prints. */
  formatPrint,
  /** A parsed printf format: literal text and directives, in order. */
  type PrintSegment,
  /** One directive of a printf format: its conversion and field width ('auto', 0 or N). */
  type PrintDirective,
  /** A printf conversion: `d` unsigned decimal, `i` signed decimal, `x` hexadecimal, `b` binary. */
  type PrintConversion,
} from '../hw/core/index.ts';
export {
  /** The deepest memory `m.memory` accepts (2^20 words). */
  MAX_MEMORY_DEPTH,
  /** Options of `m.memory`: depth (any, 1 … 2^20), width, write-mask granularity, initial contents, read-during-write of `readSync`. */
  type MemoryOptions,
  /** Options of `m.rom`: width, contents (words or a hex file), optional depth. */
  type RomOptions,
  /** Initial contents: an array of words from address 0, or the path of a `$readmemh`-style hex file (relative to the declaring file). */
  type MemoryInit,
  /** What a registered read returns when the same edge writes its word: 'read-first' (old data) or 'write-first' (new data). */
  type ReadDuringWrite,
} from '../hw/core/index.ts';
export {
  /** An input port of the given width (in the `ports` function of a module). */
  input,
  /** An output port of the given width. */
  output,
  /** `count` copies of a port or group: `vec(4, input(8))` is four 8-bit inputs `name_0 … name_3`. */
  vec,
  /** The leaf ports of a port tree in declaration order, with their flattened names (`name_field_0`). */
  flattenPorts,
  /** One port: direction and width. */
  type PortSpec,
  /** Ports as a tree of port specs, arrays and records. */
  type PortTree,
  /** The signals `build` receives as `io` for a port tree. */
  type IoOf,
  /** Which way a port points: 'input' or 'output'. */
  type PortDirection,
  /** A design's ports as the types know them: each flattened name with its direction and width. */
  type PortTypes,
  /** The flattened port types of a port tree (`elaborate` gives them to the design it returns). */
  type FlatPortsOf,
  /** A port tree with every direction turned round, as `flip` returns it. */
  type Flipped,
  /** The input names a testbench may poke for a design's port types (any name when unknown). */
  type InputName,
  /** The output names a testbench may peek or expect for a design's port types. */
  type OutputName,
  /** Per-cycle port values by the names a design's type allows (stimulus and expected rows). */
  type PortValuesOf,
} from '../hw/core/index.ts';
export {
  /** A width-checked hardware value: operators (`add`, `and`, `eq`, `bits`, `zext`, …) build new values. */
  Value,
  /** A constant of a given width: `constant(5, 8)`. */
  constant,
  /** Two-way choice: `mux(select, whenTrue, whenFalse)`. */
  mux,
  /** Concatenation, most significant first. */
  cat,
  /** `options[index]`, all options of one width (an out-of-range index gives the last option). */
  select,
  /** The number of bits needed to hold the values 0 … maxValue. */
  bitsFor,
  /** The widest value the DSL allows, in bits. */
  MAX_WIDTH,
  /** What operators accept: a Value, a signal, or a number/bigint that fits (no width check in the types). */
  type ValueLike,
  /** An operator's other operand: a literal, or a value whose literal width tsc compares with this one's. */
  type Operand,
  /** The width of a mux whose arms have the given types. */
  type MuxWidth,
  /** The widths of a tuple of values, in order (what `cat` adds up). */
  type WidthsOf,
  /** `A + B` of literal widths in the types (`number` when either is a run-time width). */
  type WidthSum,
  /** `A − B` of literal widths in the types (`number` when either is a run-time width or B > A). */
  type WidthDifference,
  /** The width of bits `Hi..Lo`: `Hi − Lo + 1`. */
  type SliceWidth,
  /** The sum of a tuple of widths. */
  type TotalWidth,
  /** No constraint when two widths agree or either is a run-time width; else a WidthMismatch. */
  type SameWidth,
  /** The type an operand must have, and lacks, when its literal width differs: tsc's message names both widths. */
  type WidthMismatch,
  /** The operator names of the IR. */
  type Operator,
} from '../hw/core/index.ts';
export {
  /** A named wire, register or port inside a module. */
  Signal,
  /** What a signal is: input, output, wire, register, or a port of an instance. */
  type SignalKind,
} from '../hw/core/index.ts';
export {
  /** The root of every design error; carries the user's source location and prints as `file:line: message`. */
  HdlError,
  /** Operands or an assignment of different widths (no silent truncation). */
  WidthMismatchError,
  /** An output or wire nothing drives. */
  UndrivenSignalError,
  /** A signal driven from two places. */
  MultipleDriverError,
  /** A combinational loop; the message lists the path with source lines. */
  CombinationalLoopError,
  /** A slice outside a value's bits. */
  SliceRangeError,
  /** Two signals or instances of one name in a module. */
  DuplicateNameError,
  /** A parameter the module does not have, or of the wrong type. */
  InvalidParameterError,
  /** A register of one clock domain fed combinationally by another domain's state without a synchronizer. */
  ClockCrossingError,
} from '../hw/core/index.ts';
export {
  /** Where in the user's code a construct was made (file, line, column). */
  type SourceLocation,
  /** `file:line` text of a source location. */
  formatLocation,
} from '../hw/core/index.ts';
export {
  /** Names a bundle type: a group of fields written from the producer's side (`output` forward, `input` back). */
  bundle,
  /** The consumer's side of a bundle: every direction turned round. */
  flip,
  /** A group of wires shaped like a bundle type, named `name_field…`. */
  wires,
  /** A group of registers shaped like a bundle type (`{ reset }` for every field). */
  regs,
  /** Joins two matching interfaces in one call, each field in the direction it flows. */
  connect,
  /** The fields of a bundle type spread into a port list, taken back out of an io or instance by name. */
  fieldsOf,
  /** A valid-only stream whose payload fields sit beside its valid bit (which may be renamed, e.g. `start`). */
  flowOf,
  /** The total width of a bundle type's fields. */
  bundleWidth,
  /** Two interfaces given to `connect` that do not match; the message names the field. */
  InterfaceMismatchError,
  /** A port group read with a name (or index) it does not have, such as a misspelled port. */
  UnknownPortError,
  /** Declares an enum: named values kept as Verilog localparams and as state names in waveforms. */
  defineEnum,
  /** A register holding an enum value, with an optional named reset value and declared transitions (others fail an assertion). */
  enumReg,
  /** A wire carrying an enum value. */
  enumWire,
  /** An enum type as `defineEnum` returns it (width, names, codes, `lit`, `is`). */
  type HdlEnum,
  /** A finite-state machine over an enum: one body per state, `go(next)` to move on. */
  fsm,
  /** The machine `fsm` returns: its state register and `is(state)`. */
  type Fsm,
  /** A state of an FSM that no transition reaches from reset, or a state without a body. */
  UnreachableStateError,
  /** Instantiates an existing Verilog module: ports in TypeScript, an optional DSL model for the ts engine. */
  defineBlackBox,
} from '../hw/core/index.ts';
export {
  /** A temporal sequence starting with a 1-bit value: `seq(a).then([1, 3], b)` is SVA `a ##[1:3] b`. */
  seq,
  /** A sequence after a delay, for consequents: `seq(req).implies(delay([1, 3], ack))` is `req |-> ##[1:3] ack`. */
  delay,
  /** Bounded eventually: the value holds within `within` edges, now included (`##[0:within] b`). */
  eventually,
  /** Booleans joined by delays: `then`, `implies` (`|->`), `impliesNext` (`|=>`); `m.assert`, `m.assume`, `m.cover` take it. */
  Sequence,
  /** An implication between sequences, for `m.assert` and `m.assume`: fails in the cycle an attempt can no longer succeed. */
  Property,
  /** A delay in clock edges: `n` or an inclusive range `[min, max]`. */
  type Delay,
} from '../hw/core/index.ts';
export {
  /** A valid-ready stream of words (`valid`, `data` forward, `ready` back), from the producer's side. */
  Stream,
  /** Whether a stream's word moves at this edge: `valid && ready`. */
  fire,
  /** Asserts the stream protocol on a stream a module produces: valid held until ready, data stable while stalled. */
  assertStreamProtocol,
  /** A valid-only stream of words (`valid`, `data` forward, no ready), from the producer's side. */
  Flow,
  /** A valid-ready FIFO of any depth from 1. */
  StreamFifo,
  /** A valid-ready pipeline stage with a registered ready (skid buffer). */
  SkidBuffer,
  /** A round-robin arbiter of valid-ready streams, with the grant kept while the output stalls. */
  RoundRobinArbiter,
  /** A valid-ready fork: each word to every output. */
  StreamFork,
  /** A valid-ready join: one word from every input, concatenated. */
  StreamJoin,
} from '../hw/lib/stream/index.ts';
export {
  /** A two-flop (or longer) synchronizer into its `dst` domain; its input is an intended clock-domain crossing. */
  Synchronizer,
  /** An asynchronous FIFO between a `wr` and an `rd` clock domain, with Gray-coded pointers (depth a power of two). */
  AsyncFifo,
  /** Binary to reflected Gray code (neighbouring values differ in one bit). */
  toGray,
  /** The golden check of a FIFO's traffic: every accepted word delivered once, in order, never more than its depth in flight. */
  checkFifoTraffic,
  /** What went into and came out of a FIFO, in order (for checkFifoTraffic). */
  type FifoTraffic,
} from '../hw/lib/cdc/index.ts';
export {
  /** A vector of signals or bundles: `at(3)` checked at your line, `at(index)` reads through a mux and drives through a decoder. */
  Vec,
  /** An element read at a hardware index: a value that can also be driven (`vec.at(i).set(v)`). */
  VecEntry,
  /** A Vec of the given signals or bundles (ports of a `vec`, `regs`/`wires` groups). */
  vecOf,
  /** `count` registers of one width as a Vec, named `name_0 …`. */
  regVec,
  /** `count` wires of one width as a Vec, named `name_0 …`. */
  wireVec,
  /** What a Vec holds: signals, or groups and arrays of them. */
  type VecElement,
  /** An element's shape read at a hardware index (each signal a VecEntry). */
  type EntryOf,
} from '../hw/core/index.ts';
