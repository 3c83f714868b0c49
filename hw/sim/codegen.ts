import type { FlatCell, FlatDesign } from './flatten.ts';

/** Nets up to this width live in a Uint32Array and use plain number arithmetic. */
export const NARROW_LIMIT = 32;

/** Where each net's value lives: `n[slot]` (≤ 32 bits, number) or `w[slot]` (wider, bigint). */
export interface StorageLayout {
  readonly narrow: Int32Array; // net → slot in n, or -1
  readonly wide: Int32Array; // net → slot in w, or -1
  readonly narrowCount: number;
  readonly wideCount: number;
}

export function layoutStorage(design: FlatDesign): StorageLayout {
  const narrow = new Int32Array(design.nets.length).fill(-1);
  const wide = new Int32Array(design.nets.length).fill(-1);
  let narrowCount = 0;
  let wideCount = 0;
  for (const net of design.nets) {
    if (net.width <= NARROW_LIMIT) narrow[net.id] = narrowCount++;
    else wide[net.id] = wideCount++;
  }
  return { narrow, wide, narrowCount, wideCount };
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;
const narrowMask = (width: number): string => (width >= 32 ? '0xffffffff' : hex((1n << BigInt(width)) - 1n));
const bigMask = (width: number): string => `${hex((1n << BigInt(width)) - 1n)}n`;

/** Straight-line JavaScript for one cell, reading and writing the storage arrays. */
class CellEmitter {
  constructor(
    private readonly design: FlatDesign,
    private readonly layout: StorageLayout,
  ) {}

  width(net: number): number {
    return this.design.nets[net]!.width;
  }
  isNarrow(net: number): boolean {
    return this.layout.narrow[net]! >= 0;
  }
  /** The net's value in its own representation. */
  ref(net: number): string {
    return this.isNarrow(net) ? `n[${this.layout.narrow[net]}]` : `w[${this.layout.wide[net]}]`;
  }
  /** The net's value as a bigint. */
  big(net: number): string {
    return this.isNarrow(net) ? `BigInt(n[${this.layout.narrow[net]}])` : `w[${this.layout.wide[net]}]`;
  }

  emit(cell: FlatCell): string {
    const target = this.ref(cell.output);
    const narrowOut = this.isNarrow(cell.output);
    if (narrowOut && cell.inputs.every((input) => this.isNarrow(input))) return `${target} = ${this.narrowExpression(cell)};`;
    const value = this.bigExpression(cell);
    return `${target} = ${narrowOut ? `Number(${value})` : value};`;
  }

  /** Every operand and the result fit 32 bits: number arithmetic, kept unsigned with `>>> 0`. */
  private narrowExpression(cell: FlatCell): string {
    const w = this.width(cell.output);
    const m = narrowMask(w);
    const [a, b, c] = cell.inputs.map((input) => this.ref(input));
    const wa = cell.inputs[0] === undefined ? 0 : this.width(cell.inputs[0]);
    const signed = (value: string, width: number): string => (width === 32 ? `(${value} | 0)` : `((${value} << ${32 - width}) >> ${32 - width})`);
    switch (cell.op) {
      case 'const': return hex(cell.constant!);
      case 'buf': case 'zext': return a!;
      case 'not': return `(~${a} & ${m}) >>> 0`;
      case 'neg': return `(-${a} & ${m}) >>> 0`;
      case 'and': return `(${a} & ${b}) >>> 0`;
      case 'or': return `(${a} | ${b}) >>> 0`;
      case 'xor': return `(${a} ^ ${b}) >>> 0`;
      case 'add': return `((${a} + ${b}) & ${m}) >>> 0`;
      case 'sub': return `((${a} - ${b}) & ${m}) >>> 0`;
      case 'mul': return `${a} * ${b}`; // result width = sum of operand widths ≤ 32: exact in a double
      case 'eq': return `${a} === ${b} ? 1 : 0`;
      case 'ne': return `${a} !== ${b} ? 1 : 0`;
      case 'ltu': return `${a} < ${b} ? 1 : 0`;
      case 'leu': return `${a} <= ${b} ? 1 : 0`;
      case 'lts': return `${signed(a!, wa)} < ${signed(b!, wa)} ? 1 : 0`;
      case 'les': return `${signed(a!, wa)} <= ${signed(b!, wa)} ? 1 : 0`;
      case 'shl': return `${b} >= ${w} ? 0 : ((${a} << ${b}) & ${m}) >>> 0`;
      case 'shr': return `${b} >= ${w} ? 0 : ${a} >>> ${b}`;
      case 'sra': return `(${signed(a!, w)} >> (${b} >= ${w} ? ${w - 1} : ${b}) & ${m}) >>> 0`;
      case 'mux': return `${a} ? ${b} : ${c}`;
      case 'slice': return `(${a} >>> ${cell.lo}) & ${narrowMask(cell.hi! - cell.lo! + 1)}`;
      case 'sext': return `(${signed(a!, wa)} & ${m}) >>> 0`;
      case 'redand': return `${a} === ${narrowMask(wa)} ? 1 : 0`;
      case 'redor': return `${a} !== 0 ? 1 : 0`;
      case 'redxor': return `parity32(${a})`;
      case 'memread': return `m${cell.memory}[${a}]`;
      case 'cat': {
        let shift = 0;
        const parts: string[] = [];
        for (let index = cell.inputs.length - 1; index >= 0; index--) {
          const input = cell.inputs[index]!;
          parts.push(shift === 0 ? this.ref(input) : `(${this.ref(input)} << ${shift})`);
          shift += this.width(input);
        }
        return `(${parts.join(' | ')}) >>> 0`;
      }
    }
  }

  /** Some operand or the result is wider than 32 bits: bigint arithmetic (hw/ir/evaluate.ts semantics). */
  private bigExpression(cell: FlatCell): string {
    const w = this.width(cell.output);
    const m = bigMask(w);
    const [a, b, c] = cell.inputs.map((input) => this.big(input));
    const wa = cell.inputs[0] === undefined ? 0 : this.width(cell.inputs[0]);
    const signed = (value: string, width: number): string => `BigInt.asIntN(${width}, ${value})`;
    const amount = (value: string): string => `(${value} >= ${w}n ? ${w}n : ${value})`;
    switch (cell.op) {
      case 'const': return `${hex(cell.constant!)}n`;
      case 'buf': case 'zext': return a!;
      case 'not': return `~${a} & ${m}`;
      case 'neg': return `-${a} & ${m}`;
      case 'and': return `${a} & ${b}`;
      case 'or': return `${a} | ${b}`;
      case 'xor': return `${a} ^ ${b}`;
      case 'add': return `(${a} + ${b}) & ${m}`;
      case 'sub': return `(${a} - ${b}) & ${m}`;
      case 'mul': return `${a} * ${b}`;
      case 'eq': return `${a} === ${b} ? 1n : 0n`;
      case 'ne': return `${a} !== ${b} ? 1n : 0n`;
      case 'ltu': return `${a} < ${b} ? 1n : 0n`;
      case 'leu': return `${a} <= ${b} ? 1n : 0n`;
      case 'lts': return `${signed(a!, wa)} < ${signed(b!, wa)} ? 1n : 0n`;
      case 'les': return `${signed(a!, wa)} <= ${signed(b!, wa)} ? 1n : 0n`;
      case 'shl': return `(${a} << ${amount(b!)}) & ${m}`;
      case 'shr': return `${a} >> ${amount(b!)}`;
      case 'sra': return `(${signed(a!, w)} >> ${amount(b!)}) & ${m}`;
      case 'mux': return `${this.ref(cell.inputs[0]!)} ? ${b} : ${c}`;
      case 'slice': return `(${a} >> ${cell.lo}n) & ${bigMask(cell.hi! - cell.lo! + 1)}`;
      case 'sext': return `${signed(a!, wa)} & ${m}`;
      case 'redand': return `${a} === ${bigMask(wa)} ? 1n : 0n`;
      case 'redor': return `${a} !== 0n ? 1n : 0n`;
      case 'redxor': return `parityBig(${a})`;
      case 'memread': return `m${cell.memory}[${this.ref(cell.inputs[0]!)}]`;
      case 'cat': {
        let shift = 0;
        const parts: string[] = [];
        for (let index = cell.inputs.length - 1; index >= 0; index--) {
          const input = cell.inputs[index]!;
          parts.push(shift === 0 ? this.big(input) : `(${this.big(input)} << ${shift}n)`);
          shift += this.width(input);
        }
        return parts.join(' | ');
      }
    }
  }
}

/** V8 leaves large functions unoptimized (measured: 1500-statement chunks settle ~80× slower than 200); code is split into chunks of this many statements. */
const STATEMENTS_PER_FUNCTION = 200;

function chunked(prefix: string, statements: readonly string[]): { definitions: string; call: string } {
  const names: string[] = [];
  const bodies: string[] = [];
  for (let start = 0; start < statements.length; start += STATEMENTS_PER_FUNCTION) {
    const name = `${prefix}${names.length}`;
    names.push(name);
    bodies.push(`function ${name}() {\n  ${statements.slice(start, start + STATEMENTS_PER_FUNCTION).join('\n  ')}\n}`);
  }
  return { definitions: bodies.join('\n'), call: names.map((name) => `${name}();`).join(' ') };
}

/**
 * The simulator's generated source: `settle()` evaluates all cells in levelized order;
 * `edge()` samples every register and memory write from the settled values, then commits.
 */
export function generateSource(design: FlatDesign, layout: StorageLayout, order: readonly number[]): string {
  const emitter = new CellEmitter(design, layout);
  const settle = order.map((index) => emitter.emit(design.cells[index]!));

  const sample: string[] = [];
  const commit: string[] = [];
  let nextNarrow = 0;
  let nextWide = 0;
  for (const register of design.registers) {
    const narrow = emitter.isNarrow(register.q);
    const slot = narrow ? `nn[${nextNarrow++}]` : `nw[${nextWide++}]`;
    const reset = narrow ? hex(register.resetValue) : `${hex(register.resetValue)}n`;
    const d = emitter.ref(register.d);
    sample.push(`${slot} = ${register.reset >= 0 ? `${emitter.ref(register.reset)} ? ${reset} : ${d}` : d};`);
    commit.push(`${emitter.ref(register.q)} = ${slot};`);
  }
  const writes: string[] = [];
  design.memories.forEach((memory, index) => {
    for (const port of memory.writePorts)
      writes.push(`if (${emitter.ref(port.enable)}) m${index}[${emitter.ref(port.address)}] = ${emitter.ref(port.data)};`);
  });
  const settleChunks = chunked('settle', settle);
  const edgeChunks = chunked('edge', [...sample, ...writes, ...commit]);
  return [
    '"use strict";',
    design.memories.map((_, index) => `const m${index} = memories[${index}];`).join('\n'),
    `const nn = new Uint32Array(${nextNarrow}); const nw = new Array(${nextWide}).fill(0n);`,
    settleChunks.definitions,
    edgeChunks.definitions,
    `return { settle() { ${settleChunks.call} }, edge() { ${edgeChunks.call} } };`,
  ].join('\n');
}
