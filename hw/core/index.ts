/**
 * The hardware description DSL: values and operators, named signals, module definitions with
 * typed ports, when/otherwise, memories and instances.
 */
export {
  Value,
  constant,
  mux,
  cat,
  select,
  bitsFor,
  MAX_WIDTH,
  type ValueLike,
  type Operand,
  type MuxWidth,
  type WidthsOf,
  type Operator,
} from './value.ts';
export type { WidthSum, WidthDifference, SliceWidth, TotalWidth, SameWidth, WidthMismatch } from './widthTypes.ts';
export { Signal, type SignalKind } from './signal.ts';
export {
  input,
  output,
  vec,
  flattenPorts,
  type PortSpec,
  type PortTree,
  type PortDirection,
  type IoOf,
  type PortTypes,
  type FlatPortsOf,
  type Flipped,
  type InputName,
  type OutputName,
  type PortValuesOf,
} from './ports.ts';
export {
  defineModule,
  isModuleDefinition,
  MODULE_DEFINITION,
  ModuleBuilder,
  Memory,
  ClockDomain,
  WhenChain,
  type ModuleDefinition,
  type CheckKind,
  type Params,
} from './module.ts';
export {
  parsePrintFormat,
  formatPrint,
  type PrintSegment,
  type PrintDirective,
  type PrintConversion,
} from './printFormat.ts';
export {
  MAX_MEMORY_DEPTH,
  type MemoryInit,
  type MemoryOptions,
  type ReadDuringWrite,
  type RomOptions,
} from './memory.ts';
export {
  HdlError,
  WidthMismatchError,
  UndrivenSignalError,
  MultipleDriverError,
  CombinationalLoopError,
  SliceRangeError,
  DuplicateNameError,
  InvalidParameterError,
  ClockCrossingError,
} from './errors.ts';
export { captureSourceLocation, formatLocation, type SourceLocation } from './sourceLocation.ts';
export { bundle, flip, wires, regs, connect, bundleWidth, InterfaceMismatchError } from './bundle.ts';
export { fieldsOf, flowOf, type FlowOf } from './bundle.ts';
export { strictGroup, UnknownPortError } from './strictPorts.ts';
export { defineEnum, enumReg, enumWire, type HdlEnum } from './enum.ts';
export { fsm, UnreachableStateError, type Fsm, type Go } from './fsm.ts';
export { defineBlackBox, blackBoxOf, type BlackBoxSpec, type BlackBoxInfo } from './blackBox.ts';
export { Vec, VecEntry, vecOf, regVec, wireVec, type VecElement, type EntryOf } from './vec.ts';
export { seq, delay, eventually, Sequence, Property, MAX_DELAY, type Delay, type SequenceStep } from './temporal.ts';
