import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  defineModule,
  input,
  output,
  type ModuleDefinition,
  type PortSpec,
  type Value,
} from '../../../hw/core/index.ts';
import { buildFuzzNode, fit } from '../../../verif/fuzz/randomDesign.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { topModule, CLOCK_PORT, type IrDesign } from '../../../hw/ir/ir.ts';
import { Simulator } from '../../../hw/sim/simulator.ts';
import { runReference } from '../../../verif/fuzz/referenceSimulator.ts';
import type { PortValues } from '../../../hw/contract/engine.ts';
import { fastCheckSeed } from '../../support/seed.ts';

/**
 * The simulator keeps values as 32-bit words; these tests aim at the word boundaries (carries,
 * borrows, shifts and slices across words, sign extension into new words) with widths up to 130,
 * beyond the shared fuzz generator's 80. Replay: FC_SEED=<seed> npx vitest run tests/hw/sim/wideWords.test.ts
 */
const seed = fastCheckSeed('sim-wide-words');
const MAX_WIDTH = 130;
const BOUNDARY_WIDTHS = [1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 130];
const widthArbitrary = fc.oneof(fc.constantFrom(...BOUNDARY_WIDTHS), fc.integer({ min: 1, max: MAX_WIDTH }));

const OPERATORS = [
  'and',
  'or',
  'xor',
  'not',
  'neg',
  'add',
  'sub',
  'addCarry',
  'mul',
  'eq',
  'ne',
  'lt',
  'le',
  'slt',
  'sle',
  'andReduce',
  'orReduce',
  'xorReduce',
  'shl',
  'shr',
  'sra',
  'shlConst',
  'shrConst',
  'sraConst',
  'mux',
  'cat',
  'bits',
  'zext',
  'sext',
] as const;
type Operator = (typeof OPERATORS)[number];

interface Node {
  op: Operator;
  a: number;
  b: number;
  c: number;
  k: number;
  width: number;
}
interface WideDesign {
  inputs: number[];
  registers: { width: number; next: number }[];
  nodes: Node[];
}

const designArbitrary: fc.Arbitrary<WideDesign> = fc.record({
  inputs: fc.array(widthArbitrary, { minLength: 1, maxLength: 4 }),
  registers: fc.array(fc.record({ width: widthArbitrary, next: fc.nat(1000) }), { maxLength: 2 }),
  nodes: fc.array(
    fc.record({
      op: fc.constantFrom(...OPERATORS),
      a: fc.nat(1000),
      b: fc.nat(1000),
      c: fc.nat(1000),
      k: fc.nat(1000),
      width: widthArbitrary,
    }),
    { minLength: 1, maxLength: 24 },
  ),
});

/** The shared fuzz builder, allowed up to 130 bits and long extensions (70 bits at once). */
const LIMITS = { maxWidth: MAX_WIDTH, extendSpan: 70 };
const buildNode = (node: Node, pool: readonly Value[]): Value => buildFuzzNode({ ...node, literal: 0n }, pool, LIMITS);

/** Inputs i0…, a 70-bit memory, the registers, every node, and a digest output of all nodes. */
function buildDesign(spec: WideDesign): ModuleDefinition {
  return defineModule({
    name: 'WideFuzz',
    defaults: {},
    ports: (): Record<string, PortSpec> => ({
      ...Object.fromEntries(spec.inputs.map((width, index) => [`i${index}`, input(width)])),
      digest: output(MAX_WIDTH),
      last: output(MAX_WIDTH),
    }),
    build(m, ports) {
      const pool: Value[] = spec.inputs.map((_, index) => ports[`i${index}`]!);
      const memory = m.memory('store', { depth: 4, width: 70 });
      pool.push(memory.read(fit(pool[0]!, 2)));
      const registers = spec.registers.map((register, index) => m.reg(`r${index}`, register.width, { reset: 0 }));
      pool.push(...registers);
      const nodes = spec.nodes.map((node) => {
        const value = buildNode(node, pool);
        pool.push(value);
        return value;
      });
      memory.write(fit(pool.at(-1)!, 2), fit(pool.at(-2)!, 70), fit(pool.at(-3)!, 1));
      registers.forEach((register, index) =>
        register.set(fit(pool[spec.registers[index]!.next % pool.length]!, register.width)),
      );
      ports.digest!.set(nodes.map((value) => fit(value, MAX_WIDTH)).reduce((acc, value) => acc.xor(value)));
      ports.last!.set(fit(pool.at(-1)!, MAX_WIDTH));
    },
  });
}

/** The compiled simulator's outputs under the engine contract (poke, peek every output, step). */
function runCompiled(design: IrDesign, stimulus: readonly PortValues[]): PortValues[] {
  const simulator = new Simulator(design);
  const outputs = [...simulator.design.flat.outputs.keys()];
  return stimulus.map((cycle) => {
    for (const [name, value] of Object.entries(cycle)) simulator.poke(name, value);
    const sampled = Object.fromEntries(outputs.map((name) => [name, simulator.peek(name)]));
    simulator.step();
    return sampled;
  });
}

/** Random values, or the patterns where carries and signs live: all ones, zero, only the top bit, all but the top bit. */
const noiseArbitrary = fc.array(
  fc.record({ kind: fc.nat(4), value: fc.bigInt({ min: 0n, max: (1n << BigInt(MAX_WIDTH)) - 1n }) }),
  { minLength: 8 * 5, maxLength: 8 * 5 },
);
function shaped(noise: { kind: number; value: bigint }, width: number): bigint {
  const mask = (1n << BigInt(width)) - 1n;
  return [noise.value & mask, mask, 0n, 1n << BigInt(width - 1), mask >> 1n][noise.kind]!;
}

describe('compiled simulator on values spanning several 32-bit words', () => {
  it('equals the plain interpreter on random designs with widths up to 130', () => {
    fc.assert(
      fc.property(designArbitrary, noiseArbitrary, (spec, noise) => {
        const design = elaborate(buildDesign(spec));
        const ports = topModule(design).ports.filter((port) => port.direction === 'input' && port.name !== CLOCK_PORT);
        const stimulus = Array.from({ length: 8 }, (_, cycle) =>
          Object.fromEntries(
            ports.map((port, index) => [
              port.name,
              port.name === 'reset'
                ? cycle === 0
                  ? 1n
                  : 0n
                : shaped(noise[(cycle * 5 + index) % noise.length]!, port.width),
            ]),
          ),
        );
        expect(runCompiled(design, stimulus)).toEqual(runReference(design, stimulus));
      }),
      { seed, numRuns: 200 },
    );
  });

  const Arithmetic = defineModule({
    name: 'WordEdges',
    defaults: {},
    ports: () => ({
      a: input(130),
      b: input(130),
      shift: input(8),
      sum: output(130),
      difference: output(130),
      less: output(1),
      lessSigned: output(1),
      shiftedLeft: output(130),
      shiftedRight: output(130),
      arithmetic: output(130),
      product: output(130),
      extended: output(130),
      middle: output(56),
    }),
    build(m, io) {
      io.sum.set(io.a.add(io.b));
      io.difference.set(io.a.sub(io.b));
      io.less.set(io.a.lt(io.b));
      io.lessSigned.set(io.a.slt(io.b));
      io.shiftedLeft.set(io.a.shl(io.shift));
      io.shiftedRight.set(io.a.shr(33));
      io.arithmetic.set(io.a.sra(io.shift));
      io.product.set(io.a.bits(64, 0).mul(io.b.bits(64, 0)));
      io.extended.set(io.a.bits(32, 0).sext(130));
      io.middle.set(io.a.bits(95, 40));
    },
  });

  it('carries, borrows, compares, shifts and extends across word boundaries exactly', () => {
    const simulator = new Simulator(elaborate(Arithmetic));
    const mask = (1n << 130n) - 1n;
    const toSigned = (value: bigint): bigint => BigInt.asIntN(130, value);
    const cases: [bigint, bigint, bigint][] = [
      [0xffffffffn, 1n, 1n],
      [(1n << 128n) - 1n, 1n, 31n],
      [mask, mask, 32n],
      [0n, 1n, 64n],
      [1n << 129n, (1n << 129n) - 1n, 129n],
      [0x1_0000_0000n, 0xffff_ffff_ffff_ffffn, 200n],
      [1n << 32n, 0n, 0n],
    ];
    for (const [a, b, shift] of cases) {
      simulator.poke('a', a);
      simulator.poke('b', b);
      simulator.poke('shift', shift);
      const amount = shift >= 130n ? 130n : shift;
      expect(simulator.peek('sum')).toBe((a + b) & mask);
      expect(simulator.peek('difference')).toBe((a - b) & mask);
      expect(simulator.peek('less')).toBe(a < b ? 1n : 0n);
      expect(simulator.peek('lessSigned')).toBe(toSigned(a) < toSigned(b) ? 1n : 0n);
      expect(simulator.peek('shiftedLeft')).toBe((a << amount) & mask);
      expect(simulator.peek('shiftedRight')).toBe(a >> 33n);
      expect(simulator.peek('arithmetic')).toBe((toSigned(a) >> amount) & mask);
      expect(simulator.peek('product')).toBe(((a & ((1n << 65n) - 1n)) * (b & ((1n << 65n) - 1n))) & mask);
      expect(simulator.peek('extended')).toBe(BigInt.asUintN(130, BigInt.asIntN(33, a)));
      expect(simulator.peek('middle')).toBe((a >> 40n) & ((1n << 56n) - 1n));
    }
  });
});
