import { cat, constant, defineModule, input, mux, output, select } from '../../../hw/core/index.ts';

/**
 * One small design per lowering rule, for the printed-IR tests (lower.test.ts, passes.test.ts).
 * Each is as small as the rule allows, so the whole expected text stays readable.
 */

/** Constants: a literal port value, a literal operand sized to the other operand. */
export const Constants = defineModule({
  name: 'Constants',
  defaults: {},
  ports: () => ({ a: input(4), five: output(4), masked: output(4) }),
  build(_m, io) {
    io.five.set(constant(5, 4));
    io.masked.set(io.a.and(0xc));
  },
});

/** Wires: a declared wire, a named expression, a wire read twice. */
export const Wires = defineModule({
  name: 'Wires',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), o: output(4) }),
  build(m, io) {
    const w = m.wire('w', 4);
    w.set(io.a.xor(io.b));
    const sum = m.named('sum', w.add(w));
    io.o.set(sum);
  },
});

/** Bitwise and unary operators. */
export const Bitwise = defineModule({
  name: 'Bitwise',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), o: output(16) }),
  build(_m, io) {
    io.o.set(cat(io.a.and(io.b), io.a.or(io.b), io.a.xor(io.b), io.a.not()));
  },
});

/** Arithmetic: add, sub, neg, the full product and addCarry (zext + add). */
export const Arithmetic = defineModule({
  name: 'Arithmetic',
  defaults: {},
  ports: () => ({
    a: input(4),
    b: input(4),
    sum: output(4),
    diff: output(4),
    minus: output(4),
    product: output(8),
    carry: output(5),
  }),
  build(_m, io) {
    io.sum.set(io.a.add(io.b));
    io.diff.set(io.a.sub(io.b));
    io.minus.set(io.a.neg());
    io.product.set(io.a.mul(io.b));
    io.carry.set(io.a.addCarry(io.b));
  },
});

/** Comparisons: gt/ge become ltu/leu with the operands swapped. */
export const Comparisons = defineModule({
  name: 'Comparisons',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), o: output(8) }),
  build(_m, io) {
    const { a, b } = io;
    io.o.set(cat(a.eq(b), a.ne(b), a.lt(b), a.le(b), a.gt(b), a.ge(b), a.slt(b), a.sle(b)));
  },
});

/** Reductions. */
export const Reductions = defineModule({
  name: 'Reductions',
  defaults: {},
  ports: () => ({ a: input(4), o: output(3) }),
  build(_m, io) {
    io.o.set(cat(io.a.andReduce(), io.a.orReduce(), io.a.xorReduce()));
  },
});

/** Shifts by a signal and by a constant (the constant gets the width it needs). */
export const Shifts = defineModule({
  name: 'Shifts',
  defaults: {},
  ports: () => ({ a: input(8), n: input(3), o: output(48) }),
  build(_m, io) {
    const { a, n } = io;
    io.o.set(cat(a.shl(n), a.shr(n), a.sra(n), a.shl(5), a.shr(1), a.sra(0)));
  },
});

/** mux and select (a chain of eq + mux). */
export const Muxes = defineModule({
  name: 'Muxes',
  defaults: {},
  ports: () => ({ s: input(1), i: input(2), a: input(4), b: input(4), c: input(4), m: output(4), chosen: output(4) }),
  build(_m, io) {
    io.m.set(mux(io.s, io.a, io.b));
    io.chosen.set(select(io.i, [io.a, io.b, io.c]));
  },
});

/** Slices (bits, bit, msb, trunc), concatenation and extensions; resizes to the same width make no cell. */
export const Slices = defineModule({
  name: 'Slices',
  defaults: {},
  ports: () => ({ a: input(8), o: output(32) }),
  build(_m, io) {
    const { a } = io;
    io.o.set(
      cat(a.bits(5, 2), a.bit(0), a.msb(), a.trunc(3), a.trunc(8).zext(8), a.bits(3, 0).zext(8), a.bits(3, 0).sext(7)),
    );
  },
});

/** A shared subexpression is one cell, however often it is used. */
export const Shared = defineModule({
  name: 'Shared',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), x: output(4), y: output(4) }),
  build(_m, io) {
    const common = io.a.add(io.b);
    io.x.set(common.and(common));
    io.y.set(common);
  },
});

/** Registers: with a reset value, without, never assigned (holds), and one with an enable (a when). */
export const Registers = defineModule({
  name: 'Registers',
  defaults: {},
  ports: () => ({ d: input(4), en: input(1), o: output(16) }),
  build(m, io) {
    const plain = m.reg('plain', 4);
    plain.set(io.d);
    const counter = m.reg('counter', 4, { reset: 9 });
    counter.set(counter.add(1));
    const held = m.reg('held', 4, { reset: 3 });
    const enabled = m.reg('enabled', 4);
    m.when(io.en, () => enabled.set(io.d));
    io.o.set(cat(plain, counter, held, enabled));
  },
});

/** when / elsewhen / otherwise: one mux per conditional branch, the guards and-ed with earlier conditions' negations. */
export const WhenElse = defineModule({
  name: 'WhenElse',
  defaults: {},
  ports: () => ({ a: input(1), b: input(1), x: input(4), y: input(4), z: input(4), o: output(4) }),
  build(m, io) {
    m.when(io.a, () => io.o.set(io.x))
      .elsewhen(io.b, () => io.o.set(io.y))
      .otherwise(() => io.o.set(io.z));
  },
});

/** A when without otherwise over a default: the default is the last mux's fallback. */
export const WhenDefault = defineModule({
  name: 'WhenDefault',
  defaults: {},
  ports: () => ({ a: input(1), x: input(4), y: input(4), o: output(4) }),
  build(m, io) {
    const w = m.wire('w', 4);
    w.set(io.y);
    m.when(io.a, () => w.set(io.x));
    io.o.set(w);
  },
});

/**
 * Nested whens and partial assignment: `p` is set in only one inner branch (a register, so it holds
 * elsewhere), `q` is assigned twice in one branch (the last wins), `r` only in the outer otherwise.
 */
export const WhenNested = defineModule({
  name: 'WhenNested',
  defaults: {},
  ports: () => ({ a: input(1), b: input(1), x: input(4), y: input(4), o: output(12) }),
  build(m, io) {
    const p = m.reg('p', 4);
    const q = m.reg('q', 4);
    const r = m.reg('r', 4);
    m.when(io.a, () => {
      m.when(io.b, () => p.set(io.x)).otherwise(() => {
        q.set(io.x);
        q.set(io.y);
      });
    }).otherwise(() => r.set(io.y));
    io.o.set(cat(p, q, r));
  },
});

/** Memories: a combinational read, a registered read, a write port, and a write inside a when. */
export const Memories = defineModule({
  name: 'Memories',
  defaults: {},
  ports: () => ({ addr: input(2), data: input(4), we: input(1), gate: input(1), word: output(4), late: output(4) }),
  build(m, io) {
    const mem = m.memory('mem', { depth: 4, width: 4 });
    mem.write(io.addr, io.data, io.we);
    m.when(io.gate, () => mem.write(io.addr.add(1), io.data.not()));
    io.word.set(mem.read(io.addr));
    io.late.set(mem.readSync(io.addr));
  },
});

/** A combinational child. */
export const Half = defineModule({
  name: 'Half',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), s: output(4) }),
  build(_m, io) {
    io.s.set(io.a.xor(io.b));
  },
});

/** A clocked child (gets clk and reset). */
export const Delay = defineModule({
  name: 'Delay',
  defaults: { width: 4 },
  ports: (p) => ({ d: input(p.width), q: output(p.width) }),
  build(m, io, p) {
    const r = m.reg('r', p.width, { reset: 0 });
    r.set(io.d);
    io.q.set(r);
  },
});

/** Instances: a combinational and a clocked child (with a non-default parameter), outputs read by the parent. */
export const Instances = defineModule({
  name: 'Instances',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), o: output(4), late: output(8) }),
  build(m, io) {
    const half = m.instance(Half, { name: 'half' });
    half.a.set(io.a);
    half.b.set(io.b);
    io.o.set(half.s);
    const delay = m.instance(Delay, { name: 'delay', params: { width: 8 } });
    delay.d.set(cat(half.s, io.a));
    io.late.set(delay.q);
  },
});

/** A constant subexpression, a mux with a constant select, and a named constant (kept, so the Verilog reads like the source). */
export const Foldable = defineModule({
  name: 'Foldable',
  defaults: {},
  ports: () => ({ a: input(4), b: input(4), o: output(4), p: output(4) }),
  build(m, io) {
    const three = constant(1, 4).add(2);
    io.o.set(io.a.add(three));
    io.p.set(mux(constant(1, 1), io.b, io.a.and(constant(6, 4).xor(3))));
    m.named('kept', constant(2, 4).add(2));
  },
});

/** A when leaves its negated condition unread (dead); a named wire nothing reads stays. */
export const Dead = defineModule({
  name: 'Dead',
  defaults: {},
  ports: () => ({ a: input(1), x: input(4), y: input(4), o: output(4) }),
  build(m, io) {
    m.named('debug', io.x.sub(1));
    m.when(io.a, () => io.o.set(io.x)).otherwise(() => io.o.set(io.y));
  },
});

/**
 * User wires named like generated node names: before naming, node 5 and the wire `_n5` share a name
 * (the printer tells them apart by id); assignNames then skips `_n0` and `_n5` for the nodes.
 */
export const NameClash = defineModule({
  name: 'NameClash',
  defaults: {},
  ports: () => ({ a: input(4), o: output(4) }),
  build(m, io) {
    const clash = m.named('_n0', io.a.add(1));
    const other = m.named('_n5', clash.xor(io.a));
    io.o.set(other.not().add(2));
  },
});

/** A combinational loop through a wire. */
export const WireLoop = defineModule({
  name: 'WireLoop',
  defaults: {},
  ports: () => ({ a: input(4), o: output(4) }),
  build(m, io) {
    const w = m.wire('w', 4);
    const v = m.named('v', w.add(io.a));
    w.set(v.not());
    io.o.set(w);
  },
});

/** A loop only through a child's combinational path (Half: s depends on a and b). */
export const InstanceLoop = defineModule({
  name: 'InstanceLoop',
  defaults: {},
  ports: () => ({ b: input(4), o: output(4) }),
  build(m, io) {
    const half = m.instance(Half, { name: 'half' });
    half.a.set(half.s);
    half.b.set(io.b);
    io.o.set(half.s);
  },
});

/** The same feedback through a clocked child (Delay: q is a register) is no loop. */
export const RegisteredFeedback = defineModule({
  name: 'RegisteredFeedback',
  defaults: {},
  ports: () => ({ o: output(4) }),
  build(m, io) {
    const delay = m.instance(Delay, { name: 'delay' });
    delay.d.set(delay.q.add(1));
    io.o.set(delay.q);
  },
});
