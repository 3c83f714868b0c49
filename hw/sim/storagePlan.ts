import type { FlatDesign } from './flatten.ts';
import { wordsOf } from './words.ts';
import type { InstanceGroups } from './instanceGroups.ts';

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
  /** cell → the settle function it is emitted in; a grouped cell: -2 - its group. */
  readonly chunkOf: Int32Array;
  /** Per group: the settle function its call is in. */
  readonly callChunk: Int32Array;
  /**
   * Per group: its first word. The words a group computes are its own run from there, laid out in
   * net order, so instances of one module find theirs at the same offsets from their base.
   */
  readonly groupBase: Int32Array;
  /** Per group: its first net (locals of its function are named relative to it). */
  readonly groupNetLow: Int32Array;
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
export function planStorage(
  design: FlatDesign,
  order: readonly number[],
  wordsPerChunk: number,
  groups?: InstanceGroups,
): StoragePlan {
  const groupCount = groups?.netLow.length ?? 0;
  const callChunk = new Int32Array(groupCount).fill(-1);
  const { nets, cells } = design;
  const { widths } = nets;
  const root = Int32Array.from({ length: nets.length }, (_, net) => net);
  const aliased = new Uint8Array(cells.length);
  const chunkOf = new Int32Array(cells.length);
  const driverChunk = new Int32Array(nets.length).fill(-1);
  const constants = new Map<number, bigint>();
  let chunk = 0;
  let weight = 0;
  for (const index of order) {
    const op = cells.op(index);
    const output = cells.output(index);
    if ((op === 'buf' || op === 'zext') && wordsOf(widths[output]!) === wordsOf(widths[cells.input(index, 0)]!)) {
      root[output] = root[cells.input(index, 0)]!;
      aliased[index] = 1;
      continue;
    }
    const group = groups ? groups.groupOf[index]! : -1;
    // A grouped cell costs its chunk nothing; its group's call one statement.
    const cost = group < 0 ? wordsOf(widths[output]!) : callChunk[group]! < 0 ? 1 : 0;
    if (cost > 0 && weight + cost > wordsPerChunk && weight > 0) {
      chunk++;
      weight = 0;
    }
    weight += cost;
    if (group >= 0 && callChunk[group]! < 0) callChunk[group] = chunk;
    chunkOf[index] = group < 0 ? chunk : -2 - group;
    driverChunk[output] = chunkOf[index]!;
    if (op === 'const') constants.set(output, cells.constants[index]!);
  }

  const stored = new Uint8Array(nets.length);
  const keep = (net: number): void => void (stored[root[net]!] = 1);
  for (let net = 0; net < nets.length; net++) if (nets.namedFlags[net]) keep(net);
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
  // The simulator formats each printf's values between settle and edge, as it reads checks.
  for (const print of design.prints ?? [])
    [print.condition, print.reset, ...print.args.map(({ net }) => net)].forEach(keep);
  const { inputStart, inputNets } = cells;
  for (let index = 0; index < cells.length; index++) {
    if (aliased[index]) continue;
    for (let at = inputStart[index]!; at < inputStart[index + 1]!; at++)
      if (driverChunk[root[inputNets[at]!]!] !== chunkOf[index]) keep(inputNets[at]!);
  }

  const offset = new Int32Array(nets.length).fill(-1);
  let wordCount = 0;
  const place = (net: number): void => {
    offset[net] = wordCount;
    wordCount += wordsOf(widths[net]!);
  };
  // Words a group computes go into its run below; everything else first, in net order.
  const inGroup = (net: number): boolean => driverChunk[net]! < -1;
  for (let net = 0; net < nets.length; net++) if (root[net] === net && stored[net] && !inGroup(net)) place(net);
  const groupBase = new Int32Array(groupCount);
  for (let group = 0; group < groupCount; group++) {
    groupBase[group] = wordCount;
    for (let net = groups!.netLow[group]!; net < groups!.netHigh[group]!; net++)
      if (root[net] === net && stored[net] && driverChunk[net] === -2 - group) place(net);
  }
  for (let net = 0; net < nets.length; net++) offset[net] = offset[root[net]!]!;
  return {
    layout: { offset, wordCount },
    root,
    aliased,
    chunkOf,
    callChunk,
    groupBase,
    groupNetLow: groups?.netLow ?? new Int32Array(0),
    chunkCount: chunk + 1,
    constants,
  };
}
