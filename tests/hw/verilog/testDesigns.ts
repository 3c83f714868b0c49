import { cat, constant, defineModule, input, mux, output } from '../../../hw/core/index.ts';

/**
 * Test designs for the Verilog backend and the external engines: every cell operator at one width
 * (a generator, so each width is its own module), state with and without reset, a memory with two
 * write ports, and a top that nests all of them with parameters — so one Verilator build covers all.
 */

/** Every operator on W-bit operands; `amount` exercises shifts by more than the width. */
export const Operators = defineModule({
  name: 'Operators',
  defaults: { width: 8 },
  ports: (p) => ({
    a: input(p.width),
    b: input(p.width),
    s: input(1),
    amount: input(8),
    bitwise: output(p.width * 3),
    arithmetic: output(p.width * 3),
    product: output(p.width * 2),
    compare: output(8),
    reduce: output(3),
    shifted: output(p.width * 6),
    selected: output(p.width),
    resized: output(p.width * 4 + 3),
    literal: output(p.width),
  }),
  build(m, io, p) {
    const w = p.width;
    const { a, b, s, amount } = io;
    io.bitwise.set(cat(a.and(b), a.or(b), a.xor(b).not()));
    io.arithmetic.set(cat(a.add(b), a.sub(b), a.neg()));
    io.product.set(a.mul(b));
    io.compare.set(cat(a.eq(b), a.ne(b), a.lt(b), a.le(b), a.slt(b), a.sle(b), a.gt(b), b.sle(a)));
    io.reduce.set(cat(a.andReduce(), a.orReduce(), a.xorReduce()));
    // Dynamic amounts of two widths (8 bits, so ≥ W for small W; and W bits, huge for wide W), and a constant one.
    io.shifted.set(cat(a.shl(amount), a.shr(amount), a.sra(amount), b.sra(a), a.shr(b), a.shl(Math.min(3, w - 1))));
    io.selected.set(mux(s, a, b));
    const high = w > 1 ? a.bits(w - 1, 1) : a;
    io.resized.set(cat(a.msb(), a.bit(0), high.zext(w), a.sext(w * 2), b.trunc(w), s));
    io.literal.set(m.named('pattern', constant((1n << BigInt(w)) - 1n - (w > 2 ? 2n : 0n), w)).xor(b));
  },
});

/** A counter with reset, an accumulator without reset, and a memory written by two ports. */
export const StateBlock = defineModule({
  name: 'StateBlock',
  defaults: { width: 16, depth: 8 },
  ports: (p) => ({
    enable: input(1),
    data: input(p.width),
    address: input(Math.log2(p.depth)),
    count: output(p.width),
    total: output(p.width),
    word: output(p.width),
    lastWord: output(p.width),
  }),
  build(m, io, p) {
    const count = m.reg('counter', p.width, { reset: 3 });
    m.when(io.enable, () => count.set(count.add(1)));
    const total = m.reg('sum', p.width);
    total.set(total.add(io.data));
    const memory = m.memory('words', { depth: p.depth, width: p.width });
    memory.write(io.address, io.data, io.enable);
    // Second port on the next address, same cycle; and on the same address when data is odd (later port wins).
    memory.write(io.address.add(1), io.data.not(), io.data.bit(0));
    io.count.set(count);
    io.total.set(total);
    io.word.set(memory.read(io.address));
    io.lastWord.set(memory.readSync(io.address));
  },
});

/** One more level of nesting, passing a parameter down. */
export const Nest = defineModule({
  name: 'Nest',
  defaults: { width: 16 },
  ports: (p) => ({
    enable: input(1),
    data: input(p.width),
    address: input(3),
    mixed: output(p.width),
    count: output(p.width),
  }),
  build(m, io, p) {
    const state = m.instance(StateBlock, { name: 'state', params: { width: p.width } });
    state.enable.set(io.enable);
    state.data.set(io.data);
    state.address.set(io.address);
    io.mixed.set(state.word.xor(state.lastWord).add(state.total));
    io.count.set(state.count);
  },
});

/** Verilator -Wall traps: keyword names, unread bits and outputs, a reset no register uses, a write-only memory. */
const Leaf = defineModule({
  name: 'Leaf',
  defaults: {},
  ports: () => ({ x: input(8), low: output(4), unused: output(2) }),
  build(m, io) {
    const held = m.reg('held', 4);
    held.set(io.x.bits(3, 0));
    io.low.set(held);
    io.unused.set(io.x.bits(5, 4));
    m.named('debug', io.x.bits(7, 6));
    m.memory('log', { depth: 4, width: 3 }).write(io.x.bits(1, 0), io.x.bits(2, 0));
  },
});

export const Awkward = defineModule({
  name: 'Awkward',
  defaults: {},
  ports: () => ({ begin: input(8), wire: input(1), output: output(4), one: output(1) }),
  build(m, io) {
    const leaf = m.instance(Leaf, { name: 'module' });
    leaf.x.set(io.begin);
    io.output.set(leaf.low);
    const reg = m.wire('reg', 1);
    reg.set(io.wire.not());
    io.one.set(reg.sext(3).andReduce());
  },
});

/** Widths the test top instantiates Operators at. */
export const OPERATOR_WIDTHS = [1, 2, 7, 32, 33, 64, 65, 128, 130] as const;

/** Everything at once: one Verilator build for the whole backend test. */
export const Everything = defineModule({
  name: 'Everything',
  defaults: {},
  ports: () => ({
    a: input(130),
    b: input(130),
    s: input(1),
    amount: input(8),
    enable: input(1),
    address: input(3),
    ops: output(OPERATOR_WIDTHS.reduce((sum, w) => sum + w * 20 + 14, 0)),
    mixed: output(33),
    count: output(33),
    small: output(4),
    // Keyword names at the top: the harness and testbench must use the emitted spelling.
    wire: input(1),
    output: output(5),
  }),
  build(m, io) {
    const results = OPERATOR_WIDTHS.map((w) => {
      const child = m.instance(Operators, { name: `ops${w}`, params: { width: w } });
      child.a.set(io.a.trunc(w));
      child.b.set(io.b.trunc(w));
      child.s.set(io.s);
      child.amount.set(io.amount);
      return cat(
        child.bitwise,
        child.arithmetic,
        child.product,
        child.compare,
        child.reduce,
        child.shifted,
        child.selected,
        child.resized,
        child.literal,
      );
    });
    io.ops.set(cat(...results));
    const nest = m.instance(Nest, { name: 'nest', params: { width: 33 } });
    nest.enable.set(io.enable);
    nest.data.set(io.a.bits(32, 0));
    nest.address.set(io.address);
    io.mixed.set(nest.mixed);
    io.count.set(nest.count);
    const small = m.instance(StateBlock, { name: 'tiny', params: { width: 4, depth: 2 } });
    small.enable.set(io.s);
    small.data.set(io.b.bits(3, 0));
    small.address.set(io.address.bit(0));
    io.small.set(small.count.xor(small.word).xor(small.lastWord).xor(small.total));
    const awkward = m.instance(Awkward, { name: 'awkward' });
    awkward.begin.set(io.b.bits(129, 122));
    awkward.wire.set(io.wire);
    io.output.set(cat(awkward.output, awkward.one));
  },
});
