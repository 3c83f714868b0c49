import { describe, expect, it } from 'vitest';
import { cat, constant, defineModule, input, output } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { TsEngine } from '../../../engines/ts/tsEngine.ts';
import { VerilatorEngine } from '../../../engines/verilator/verilatorEngine.ts';
import { IcarusEngine } from '../../../engines/icarus/icarusEngine.ts';
import { compareEngines } from '../../../verif/fuzz/differential.ts';

/**
 * Wrong results of an external engine that the differential fuzz found and that the Verilog
 * emitter now works around, each as its smallest designs, checked on all three engines.
 *
 * Verilator 5.006 (fuzz seed 999, case 90; verilator/verilator#5953, fixed upstream in 2025): it expands an
 * OR/AND-reduction or `==`/`!=` over more than 64 bits into 32-bit words and a 1-bit compare; when
 * that compare folds to 1 only after the expansion (`|~{76'h0, x}`: the upper words are constant
 * ones), the constant keeps a 1-bit C++ width, and a wide `^`, `|`, `&` or concatenation it is
 * zero-extended into takes it for an all-ones word 0. `~{76'h0, x}` XOR-ed with its own
 * OR-reduction gave 0x1fffffffffff00000001 for x = 1, not 0x1fffffffffffffffffff. The emitter
 * writes such reductions and equalities over ≤ 64-bit chunks (`(|n[63:0]) | (|n[76:64])`), which
 * Verilator never expands; `^n` too, which stopped Verilator 5.006 with an internal error. The
 * fuzz's shrunk case is also in the corpus.
 */
const Shapes = defineModule({
  name: 'WideFoldedCompare',
  defaults: {},
  ports: () => ({
    x: input(1),
    y: input(77),
    found: output(80),
    other: output(80),
    orInto: output(80),
    andInto: output(80),
    catInto: output(80),
    notEqual: output(80),
    equal: output(80),
    parity: output(80),
  }),
  build(_m, io) {
    const n = io.x.zext(77).not();
    const any = n.orReduce().zext(80);
    const y = io.y.zext(80);
    // The fuzz's case: the negated zero-extension XOR-ed with its own OR-reduction.
    io.found.set(n.zext(80).xor(any));
    // Any wide operand: word 0 of y came out inverted, OR-ed into all ones, AND-ed into y.
    io.other.set(y.xor(any));
    io.orInto.set(y.or(any));
    io.andInto.set(y.and(any));
    io.catInto.set(cat(constant(0, 3), io.y.bits(75, 0), n.orReduce()));
    io.notEqual.set(y.xor(n.ne(constant(0, 77)).zext(80)));
    io.equal.set(y.xor(n.eq(n.or(constant(0, 77))).zext(80)));
    // The same wide XOR-reduction was a Verilator internal error (a build failure).
    io.parity.set(y.xor(n.xorReduce().zext(80)));
  },
});

/**
 * Verilator 5.006 (fuzz seed 665243967, case 68): its bit-op-tree optimization folds
 * `(x ^ ~x) ^ (x << x)` to `x << x`, dropping the constant 1 that `x ^ ~x` is, so the 1-bit value
 * was 0 for both x (verilator/verilator#4709 and #5186 are the same optimization's, fixed later
 * upstream). The Verilator build turns that optimization off (`-fno-const-bit-op-tree`).
 */
const XorShift = defineModule({
  name: 'XorNotShift',
  defaults: {},
  ports: () => ({ x: input(1), y: input(8), narrow: output(1), wide: output(80) }),
  build(_m, io) {
    io.narrow.set(io.x.xor(io.x.not()).xor(io.x.shl(io.x)));
    const z = io.y.zext(80);
    io.wide.set(z.xor(z.not()).xor(z.shl(io.x)));
  },
});

describe('engine bugs worked around in the Verilog emitter', () => {
  it('Verilator 5.006: wide reductions and equalities that fold to a constant keep word 0 of what they are combined with', async () => {
    const design = elaborate(Shapes);
    const verilog = [...emitVerilog(design).values()].join('\n');
    expect(verilog).toMatch(/\(\(\|_n\d+\[63:0\]\) \| \(\|_n\d+\[76:64\]\)\)/);
    expect(verilog).toMatch(/\(_n\d+\[63:0\] != _n\d+\[63:0\]\) \| \(_n\d+\[76:64\] != _n\d+\[76:64\]\)/);
    expect(verilog).not.toMatch(/\|_n\d+\)/);
    const y = 0x1234_9abcdef0_12345678n;
    const stimulus = [0n, 1n].flatMap((x) => [
      { x, y },
      { x, y: (1n << 77n) - 1n },
      { x, y: 0n },
    ]);
    const engines = [new TsEngine(), new IcarusEngine(), new VerilatorEngine()];
    expect(await compareEngines(design, stimulus, engines)).toBeUndefined();
  }, 300_000);
  it('Verilator 5.006: an XOR of a value with its own inverse keeps its constant ones beside a shift', async () => {
    const stimulus = [0n, 1n].flatMap((x) => [0n, 1n, 0x80n, 0xffn].map((y) => ({ x, y })));
    const engines = [new TsEngine(), new IcarusEngine(), new VerilatorEngine()];
    expect(await compareEngines(elaborate(XorShift), stimulus, engines)).toBeUndefined();
  }, 300_000);
});
