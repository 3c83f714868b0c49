import { describe, expect, it } from 'vitest';
import { defineModule, input, output } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../../hw/verilog/emit.ts';
import { TsEngine } from '../../../engines/tsEngine.ts';
import { VerilatorEngine } from '../../../engines/verilatorEngine.ts';
import { IcarusEngine } from '../../../engines/icarusEngine.ts';
import { compareEngines } from '../../../verif/fuzz/differential.ts';

/**
 * Wrong results of an external engine that the differential fuzz found and that are not yet
 * worked around, each reduced to its smallest design. The test states today's wrong value, so it
 * fails the day the engine (or a workaround in the Verilog emitter or the Verilator flags) fixes
 * it: then move the case into the corpus.
 *
 * Verilator 5.006 (fuzz seed 999, case 90): a 77-bit `~{76'h0, x}` XOR-ed, zero-extended, with
 * its own OR-reduction loses word 0: x = 1 gives 0x1fffffffffff00000001, not
 * 0x1fffffffffffffffffff. The emitted Verilog is right (Icarus and the in-process simulator
 * agree); `-fno-expand`, `-fno-gate` or `-fno-subst` (or -O0) make Verilator right, while
 * `-fno-const-bit-op-tree` does not.
 */
describe('known engine bugs', () => {
  it('Verilator 5.006 drops word 0 of a wide XOR with the OR-reduction of a negated zero-extension', async () => {
    const WideXorReduce = defineModule({
      name: 'WideXorReduce',
      defaults: {},
      ports: () => ({ x: input(1), o: output(80) }),
      build(_m, io) {
        const n = io.x.zext(77).not();
        io.o.set(n.zext(80).xor(n.orReduce().zext(80)));
      },
    });
    const design = elaborate(WideXorReduce);
    const verilog = [...emitVerilog(design).values()].join('\n');
    expect(verilog).toContain("= ~{76'h0, x};");
    expect(verilog).toMatch(/assign o = \{3'd0, _n\d+\} \^ \{79'h0, \(\|_n\d+\)\};/);
    const disagreement = await compareEngines(
      design,
      [{ x: 1n }],
      [new TsEngine(), new IcarusEngine(), new VerilatorEngine()],
    );
    expect(disagreement).toEqual({
      cycle: 0,
      port: 'o',
      values: { ts: 0x1fffffffffffffffffffn, icarus: 0x1fffffffffffffffffffn, verilator: 0x1fffffffffff00000001n },
    });
  }, 300_000);
});
