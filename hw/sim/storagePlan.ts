import type { FlatDesign } from './flatten.ts';
import { wordsOf } from './words.ts';

/** Where each net's words live in the simulator's state array. */
export interface StorageLayout {
  /** net → index of its first (least significant) word, or -1 for intermediates kept in generated locals. */
  readonly offset: Int32Array;
  readonly wordCount: number;
}

/** Decisions made before any code is written: aliases, chunks, and which nets need a home in memory. */
export interface StoragePlan {
  readonly layout: StorageLayout;
  /** net → the net whose words it always equals (buffers and word-preserving zero extensions collapse into one class). */
  readonly root: Int32Array;
  /** cell → 1 when it is folded into its input's class (no code). */
  readonly aliased: Uint8Array;
  /** cell → the settle function it is emitted in. */
  readonly chunkOf: Int32Array;
  readonly chunkCount: number;
  /** Class roots driven by a constant cell, with the constant. */
  readonly constants: ReadonlyMap<number, bigint>;
}

/**
 * Plans storage. A net class gets array words when someone outside its chunk can see it: it is
 * named (peek, trace), a port or register, read by the edge, or read by a cell of another settle
 * chunk (inputs and register outputs are read outside any chunk). Every other class lives in
 * `const` locals of its chunk, which V8 keeps in registers; nets nothing reads get no words.
 */
export function planStorage(design: FlatDesign, order: readonly number[], wordsPerChunk: number): StoragePlan {
  const { nets, cells } = design;
  const root = Int32Array.from(nets, (net) => net.id);
  const aliased = new Uint8Array(cells.length);
  const chunkOf = new Int32Array(cells.length);
  const driverChunk = new Int32Array(nets.length).fill(-1);
  const constants = new Map<number, bigint>();
  let chunk = 0;
  let weight = 0;
  for (const index of order) {
    const cell = cells[index]!;
    if (
      (cell.op === 'buf' || cell.op === 'zext') &&
      wordsOf(nets[cell.output]!.width) === wordsOf(nets[cell.inputs[0]!]!.width)
    ) {
      root[cell.output] = root[cell.inputs[0]!]!;
      aliased[index] = 1;
      continue;
    }
    const cost = wordsOf(nets[cell.output]!.width);
    if (weight + cost > wordsPerChunk && weight > 0) {
      chunk++;
      weight = 0;
    }
    weight += cost;
    chunkOf[index] = chunk;
    driverChunk[cell.output] = chunk;
    if (cell.op === 'const') constants.set(cell.output, cell.constant!);
  }

  const stored = new Uint8Array(nets.length);
  const keep = (net: number): void => void (stored[root[net]!] = 1);
  for (const net of nets) if (net.named) keep(net.id);
  for (const register of design.registers) {
    keep(register.q);
    keep(register.d);
    if (register.reset >= 0) keep(register.reset);
  }
  for (const memory of design.memories)
    for (const port of memory.writePorts)
      [port.address, port.data, port.enable, ...(port.mask === undefined ? [] : [port.mask])].forEach(keep);
  // The simulator reads each check's condition (and its module's reset) between settle and edge.
  for (const check of design.checks ?? []) {
    keep(check.condition);
    if (check.reset >= 0) keep(check.reset);
  }
  cells.forEach((cell, index) => {
    if (aliased[index]) return;
    for (const input of cell.inputs) if (driverChunk[root[input]!] !== chunkOf[index]) keep(input);
  });

  const offset = new Int32Array(nets.length).fill(-1);
  let wordCount = 0;
  for (const net of nets) {
    if (root[net.id] !== net.id || !stored[net.id]) continue;
    offset[net.id] = wordCount;
    wordCount += wordsOf(net.width);
  }
  for (const net of nets) offset[net.id] = offset[root[net.id]!]!;
  return { layout: { offset, wordCount }, root, aliased, chunkOf, chunkCount: chunk + 1, constants };
}
