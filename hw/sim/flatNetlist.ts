import type { CellOp, IrCell, IrModule } from '../ir/ir.ts';
import type { SourceLocation } from '../core/sourceLocation.ts';

/**
 * The flattened netlist's nets and cells as parallel typed arrays, one entry per net or cell. An
 * object per net and per cell (with an array of inputs each) cost ~230 bytes per operator, a third
 * of the memory of compiling a 10^6-operator design; these cost ~45. Code that wants objects asks
 * for one (`get`), made on demand.
 */

/** A net of the flattened design, with the instance path it lives in (for VCD scopes and peeks). */
export interface FlatNet {
  readonly id: number;
  /** Instance names from the top down, empty for the top module. */
  readonly scope: readonly string[];
  readonly name: string;
  readonly width: number;
  /** Named nets (ports, wires, registers) are traced and peekable; nodes are not. */
  readonly named: boolean;
  readonly location: SourceLocation;
}

/** One cell as an object (what `FlatCells.get` makes): an IR cell without its source location. */
export type FlatCell = Omit<IrCell, 'location'>;

/** One instance of the hierarchy in the flat netlist: its nets are `base` … `base + module.nets.length - 1`. */
export interface FlatInstance {
  readonly scope: readonly string[];
  readonly module: IrModule;
  readonly base: number;
}

/** Every net: its width and whether it is named, by id; names and locations come from the instance's IR. */
export class FlatNets {
  readonly widths: Int32Array;
  /** 1 for a named net (port, wire, register), 0 for an intermediate node. */
  readonly namedFlags: Uint8Array;
  /** Net → index into `instances`. */
  private readonly instanceOf: Int32Array;

  constructor(readonly instances: readonly FlatInstance[]) {
    const count = instances.reduce((sum, instance) => sum + instance.module.nets.length, 0);
    this.widths = new Int32Array(count);
    this.namedFlags = new Uint8Array(count);
    this.instanceOf = new Int32Array(count);
    instances.forEach((instance, index) => {
      const { nets } = instance.module;
      for (let local = 0; local < nets.length; local++) {
        const net = instance.base + local;
        this.widths[net] = nets[local]!.width;
        this.namedFlags[net] = nets[local]!.kind === 'node' ? 0 : 1;
        this.instanceOf[net] = index;
      }
    });
  }

  get length(): number {
    return this.widths.length;
  }

  width(net: number): number {
    return this.widths[net]!;
  }

  named(net: number): boolean {
    return this.namedFlags[net] === 1;
  }

  /** The instance path of a net (one array per instance, shared by its nets). */
  scope(net: number): readonly string[] {
    return this.instances[this.instanceOf[net]!]!.scope;
  }

  name(net: number): string {
    return this.irNet(net).name;
  }

  location(net: number): SourceLocation {
    return this.irNet(net).location;
  }

  /** One net as an object. */
  get(net: number): FlatNet {
    const instance = this.instances[this.instanceOf[net]!]!;
    const { name, location } = instance.module.nets[net - instance.base]!;
    return { id: net, scope: instance.scope, name, width: this.widths[net]!, named: this.named(net), location };
  }

  /** The named nets in id order (what is traced and peekable). */
  namedNets(): FlatNet[] {
    const named: FlatNet[] = [];
    for (let net = 0; net < this.length; net++) if (this.namedFlags[net]) named.push(this.get(net));
    return named;
  }

  *[Symbol.iterator](): IterableIterator<FlatNet> {
    for (let net = 0; net < this.length; net++) yield this.get(net);
  }

  private irNet(net: number): IrModule['nets'][number] {
    const instance = this.instances[this.instanceOf[net]!]!;
    return instance.module.nets[net - instance.base]!;
  }
}

/** Every cell operator, by its code in `FlatCells.ops`. */
const CELL_OPS = [
  'const',
  'buf',
  'not',
  'neg',
  'redand',
  'redor',
  'redxor',
  'and',
  'or',
  'xor',
  'add',
  'sub',
  'mul',
  'eq',
  'ne',
  'ltu',
  'leu',
  'lts',
  'les',
  'shl',
  'shr',
  'sra',
  'mux',
  'cat',
  'slice',
  'zext',
  'sext',
  'memread',
] as const satisfies readonly CellOp[];
// Every operator has a code (a compile error here names the one missing).
const everyOpCoded: Record<Exclude<CellOp, (typeof CELL_OPS)[number]>, never> = {};
void everyOpCoded;
const OP_CODE = new Map<CellOp, number>(CELL_OPS.map((op, code) => [op, code]));
const SLICE = OP_CODE.get('slice')!;
const MEMREAD = OP_CODE.get('memread')!;

/** Every cell: operator, output net, inputs (cell k's are `inputNets[inputStart[k]]` up to `inputStart[k + 1]`) and attributes. */
export class FlatCells {
  readonly ops: Uint8Array;
  readonly outputs: Int32Array;
  readonly inputStart: Int32Array;
  readonly inputNets: Int32Array;
  /** Slice bounds (0 for other operators). */
  readonly his: Int32Array;
  readonly los: Int32Array;
  /** Memory index of a memread, -1 for other operators. */
  readonly memories: Int32Array;
  /** The value of each const cell (undefined for other operators). */
  readonly constants: (bigint | undefined)[];
  private count = 0;

  /** Room for `capacity` cells with `inputCapacity` inputs in all; fill with `add`. */
  constructor(capacity: number, inputCapacity: number) {
    this.ops = new Uint8Array(capacity);
    this.outputs = new Int32Array(capacity);
    this.inputStart = new Int32Array(capacity + 1);
    this.inputNets = new Int32Array(inputCapacity);
    this.his = new Int32Array(capacity);
    this.los = new Int32Array(capacity);
    this.memories = new Int32Array(capacity).fill(-1);
    this.constants = new Array<bigint | undefined>(capacity).fill(undefined);
  }

  /** Cells from objects (tests, small tools). */
  static of(cells: readonly FlatCell[]): FlatCells {
    const result = new FlatCells(
      cells.length,
      cells.reduce((sum, cell) => sum + cell.inputs.length, 0),
    );
    for (const cell of cells) result.addCell(cell);
    return result;
  }

  get length(): number {
    return this.count;
  }

  /** Appends a cell: `inputs` are net ids, each plus `inputOffset`; attributes undefined where its operator has none. */
  add(
    op: CellOp,
    output: number,
    inputs: ArrayLike<number>,
    inputOffset = 0,
    constant?: bigint,
    hi?: number,
    lo?: number,
    memory?: number,
  ): void {
    const cell = this.count++;
    this.ops[cell] = OP_CODE.get(op)!;
    this.outputs[cell] = output;
    let at = this.inputStart[cell]!;
    for (let index = 0; index < inputs.length; index++) this.inputNets[at++] = inputs[index]! + inputOffset;
    this.inputStart[cell + 1] = at;
    if (constant !== undefined) this.constants[cell] = constant;
    if (hi !== undefined) {
      this.his[cell] = hi;
      this.los[cell] = lo!;
    }
    if (memory !== undefined) this.memories[cell] = memory;
  }

  /** Appends cell `cell` of `from` as it is. */
  copy(from: FlatCells, cell: number): void {
    const to = this.count++;
    this.ops[to] = from.ops[cell]!;
    this.outputs[to] = from.outputs[cell]!;
    let at = this.inputStart[to]!;
    for (let input = from.inputStart[cell]!; input < from.inputStart[cell + 1]!; input++)
      this.inputNets[at++] = from.inputNets[input]!;
    this.inputStart[to + 1] = at;
    this.constants[to] = from.constants[cell];
    this.his[to] = from.his[cell]!;
    this.los[to] = from.los[cell]!;
    this.memories[to] = from.memories[cell]!;
  }

  /** Appends a copy of a cell given as an object. */
  addCell(cell: FlatCell): void {
    this.add(cell.op, cell.output, cell.inputs, 0, cell.constant, cell.hi, cell.lo, cell.memory);
  }

  op(cell: number): CellOp {
    return CELL_OPS[this.ops[cell]!]!;
  }

  output(cell: number): number {
    return this.outputs[cell]!;
  }

  inputCount(cell: number): number {
    return this.inputStart[cell + 1]! - this.inputStart[cell]!;
  }

  /** Input `position` of a cell. */
  input(cell: number, position: number): number {
    return this.inputNets[this.inputStart[cell]! + position]!;
  }

  inputs(cell: number): number[] {
    const first = this.inputStart[cell]!;
    const inputs = new Array<number>(this.inputStart[cell + 1]! - first);
    for (let index = 0; index < inputs.length; index++) inputs[index] = this.inputNets[first + index]!;
    return inputs;
  }

  /**
   * One cell as an object. Every object gets all the fields (unused ones undefined, no spreads):
   * one shape keeps V8's property accesses in the code generator monomorphic.
   */
  get(cell: number): FlatCell {
    const code = this.ops[cell]!;
    const op = CELL_OPS[code]!;
    return {
      op,
      output: this.outputs[cell]!,
      inputs: this.inputs(cell),
      constant: this.constants[cell],
      hi: code === SLICE ? this.his[cell] : undefined,
      lo: code === SLICE ? this.los[cell] : undefined,
      memory: code === MEMREAD ? this.memories[cell] : undefined,
    };
  }

  *[Symbol.iterator](): IterableIterator<FlatCell> {
    for (let cell = 0; cell < this.count; cell++) yield this.get(cell);
  }
}
