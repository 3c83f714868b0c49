import type { IrDesign } from '../ir/ir.ts';
import { orderCells } from '../ir/topology.ts';
import { UserError } from '../../common/errors.ts';
import { flattenDesign, type FlatDesign, type FlatNet } from './flatten.ts';
import { generateSource, layoutStorage, type StorageLayout } from './codegen.ts';

/** Runtime helpers the generated code calls (kept out of the hot arithmetic). */
function parity32(value: number): number {
  value ^= value >>> 16;
  value ^= value >>> 8;
  value ^= value >>> 4;
  value ^= value >>> 2;
  value ^= value >>> 1;
  return value & 1;
}
function parityBig(value: bigint): bigint {
  let parity = 0;
  while (value !== 0n) {
    parity ^= parity32(Number(value & 0xffffffffn));
    value >>= 32n;
  }
  return BigInt(parity);
}

interface CompiledModel {
  settle(): void;
  edge(): void;
}

/** A compiled design: the flat netlist, where its values live, and the generated code. */
export interface CompiledDesign {
  readonly flat: FlatDesign;
  readonly layout: StorageLayout;
  readonly source: string;
  /** Dotted hierarchical name (`inst.sub.signal`, top ports by plain name) → net. */
  readonly signalIndex: ReadonlyMap<string, number>;
}

const compiled = new WeakMap<IrDesign, CompiledDesign>();

/** Flattens, levelizes and generates code for a design (cached per design object). */
export function compileDesign(design: IrDesign): CompiledDesign {
  const cached = compiled.get(design);
  if (cached) return cached;
  const flat = flattenDesign(design);
  const layout = layoutStorage(flat);
  const source = generateSource(flat, layout, orderCells(flat.nets.length, flat.cells));
  const signalIndex = new Map<string, number>();
  for (const net of flat.nets) if (net.named) signalIndex.set(hierarchicalName(net), net.id);
  const result = { flat, layout, source, signalIndex };
  compiled.set(design, result);
  return result;
}

/** `inst.sub.name` for nets below the top, the plain name at the top. */
export function hierarchicalName(net: FlatNet): string {
  return [...net.scope, net.name].join('.');
}

/**
 * The in-process simulator: a design compiled to JavaScript, 2-state, one clock.
 *
 * Step contract (the same for every engine; see verif/engines/engine.ts):
 * `poke` sets inputs; `peek` settles combinational logic first if anything changed, so it sees
 * this cycle's outputs; `step` settles, lets registers and memories sample at the rising edge,
 * then marks the design to settle again on the next peek. All state starts at zero.
 */
export class Simulator {
  readonly design: CompiledDesign;
  private readonly narrow: Uint32Array;
  private readonly wide: bigint[];
  private readonly memories: (Uint32Array | bigint[])[];
  private readonly model: CompiledModel;
  private dirty = true;
  private cycleCount = 0;
  private readonly beforeEdge: ((cycle: number) => void)[] = [];
  private readonly afterEdge: ((cycle: number) => void)[] = [];

  constructor(design: IrDesign | CompiledDesign) {
    this.design = 'flat' in design ? design : compileDesign(design);
    const { layout, flat, source } = this.design;
    this.narrow = new Uint32Array(layout.narrowCount);
    this.wide = new Array<bigint>(layout.wideCount).fill(0n);
    this.memories = flat.memories.map((memory) => (memory.width <= 32 ? new Uint32Array(memory.depth) : new Array<bigint>(memory.depth).fill(0n)));
    const factory = new Function('n', 'w', 'memories', 'parity32', 'parityBig', source) as (
      n: Uint32Array, w: bigint[], memories: unknown[], p32: typeof parity32, pBig: typeof parityBig,
    ) => CompiledModel;
    this.model = factory(this.narrow, this.wide, this.memories, parity32, parityBig);
  }

  /** Cycles stepped since construction. */
  get cycle(): number {
    return this.cycleCount;
  }

  /** Sets a top-level input; the value must fit the port's width. */
  poke(name: string, value: number | bigint): void {
    const net = this.design.flat.inputs.get(name);
    if (net === undefined) throw new UserError(`${this.design.flat.top.name} has no input '${name}' (inputs: ${[...this.design.flat.inputs.keys()].join(', ')})`);
    this.write(net, value, name);
    this.dirty = true;
  }

  /** Any named signal: a top port by name, or `instance.signal` below the top. */
  peek(name: string): bigint {
    const net = this.design.signalIndex.get(name);
    if (net === undefined) throw new UserError(`${this.design.flat.top.name} has no signal '${name}'`);
    this.settle();
    return this.readNet(net);
  }

  /** `peek` as a number, for signals up to 32 bits on hot paths. */
  peekNumber(name: string): number {
    const net = this.design.signalIndex.get(name);
    const slot = net === undefined ? -1 : this.design.layout.narrow[net]!;
    if (slot < 0) return Number(this.peek(name));
    this.settle();
    return this.narrow[slot]!;
  }

  /** Settles combinational logic (no clock edge). */
  settle(): void {
    if (!this.dirty) return;
    this.model.settle();
    this.dirty = false;
  }

  /** Advances `cycles` rising clock edges. */
  step(cycles = 1): void {
    for (let index = 0; index < cycles; index++) {
      this.settle();
      for (const listener of this.beforeEdge) listener(this.cycleCount);
      this.model.edge();
      this.dirty = true;
      if (this.afterEdge.length > 0) {
        this.settle();
        for (const listener of this.afterEdge) listener(this.cycleCount);
      }
      this.cycleCount++;
    }
  }

  /** Holds the synchronous `reset` input high for `cycles` edges, then low. */
  reset(cycles = 1): void {
    this.poke('reset', 1);
    this.step(cycles);
    this.poke('reset', 0);
  }

  /**
   * Observers for tracing: `before(cycle)` sees the settled values just before the edge of
   * `cycle`, `after(cycle)` the settled values just after it. Without observers nothing is paid.
   */
  observe(before: (cycle: number) => void, after: (cycle: number) => void): void {
    this.beforeEdge.push(before);
    this.afterEdge.push(after);
  }

  /** The value of a flat net (tracers and adapters). */
  readNet(net: number): bigint {
    const slot = this.design.layout.narrow[net]!;
    return slot >= 0 ? BigInt(this.narrow[slot]!) : this.wide[this.design.layout.wide[net]!]!;
  }

  private write(net: number, value: number | bigint, name: string): void {
    const width = this.design.flat.nets[net]!.width;
    const big = BigInt(value);
    if (big < 0n || big >> BigInt(width) !== 0n) throw new UserError(`value ${value} does not fit the ${width}-bit input '${name}'`);
    const slot = this.design.layout.narrow[net]!;
    if (slot >= 0) this.narrow[slot] = Number(big);
    else this.wide[this.design.layout.wide[net]!] = big;
  }
}
