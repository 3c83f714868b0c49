import { captureSourceLocation, type SourceLocation } from './sourceLocation.ts';
import { Value, coerce, type Operand } from './value.ts';
import { MultipleDriverError } from './errors.ts';

/**
 * What a named signal is, seen from the module that owns the name:
 * its own ports, wires and registers, or the ports of a sub-module instance it contains.
 */
export type SignalKind = 'input' | 'output' | 'wire' | 'reg' | 'instanceInput' | 'instanceOutput';

/** Kinds that the owning module may assign. */
const ASSIGNABLE: ReadonlySet<SignalKind> = new Set(['output', 'wire', 'reg', 'instanceInput']);

/** Receives assignments in the builder's current `when` context. */
export interface AssignmentSink {
  recordAssignment(target: Signal, value: Value, location: SourceLocation): void;
}

/**
 * A named signal: a port, wire, register or instance port. It is a Value, so it can be used in
 * expressions; `set` drives it (for a register: the value it takes at the next clock edge).
 */
export class Signal<W extends number = number> extends Value<W> {
  constructor(
    readonly name: string,
    width: W,
    readonly kind: SignalKind,
    readonly sink: AssignmentSink,
    location: SourceLocation,
    /** Register reset value (synchronous, active-high `reset`); undefined for no reset. */
    readonly resetValue?: bigint,
    /** For instance ports: the instance name and the child's port name. */
    readonly instancePort?: { readonly instance: string; readonly port: string },
  ) {
    super('ref', width, [], location);
  }

  /** Drives this signal (last assignment wins inside `when` blocks; two unconditional ones are an error). */
  set<O extends number>(value: Operand<W, O>): void {
    const location = captureSourceLocation();
    if (!ASSIGNABLE.has(this.kind)) {
      const what = this.kind === 'input' ? 'an input of its own module' : "a sub-module's output";
      throw new MultipleDriverError(location, `'${this.name}' is ${what} and cannot be driven here`);
    }
    this.sink.recordAssignment(this, coerce(value, this.width, location), location);
  }
}
