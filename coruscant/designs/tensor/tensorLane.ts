/**
 * One tensor-core lane (docs/spec.md §4.2): a DotProduct4, the accumulator add and the accumulator
 * register, 4 MACs per cycle: acc' = acc + ((p0 + p1) + (p2 + p3)) (docs/spec.md §2).
 *
 * Per cycle, with `enable`: acc ← (loadC ? c : acc) + dot(a, b). `loadC` starts an MMA from C in
 * the same cycle as its first K chunk, so an MMA over K = 16 takes 16 cycles; C = +0 clears.
 * Without `enable` the accumulator holds. The accumulator add stays combinational in every
 * configuration: it closes the loop through the register, which must turn around every cycle.
 * With `pipelined` = p the dot product has 3p cycles of latency and enable/loadC/c are delayed by
 * the same 3p cycles, so the inputs of cycle t reach `acc` at cycle t + 3p + 1.
 */
import { defineModule, input, mux, output, vec, type ModuleBuilder, type Value } from '../../../api/index.ts';
import { Fp32Adder } from '../fp/fp32Adder.ts';
import { DOT_WIDTH, DotProduct4, MAX_UNIT_STAGES, dotProductLatency, validateUnitStages } from './dotProduct4.ts';

/** Cycles from a chunk's inputs to the `acc` output that includes it. */
export function tensorLaneLatency(pipelined: number): number {
  return dotProductLatency(pipelined) + 1;
}

/** `value` delayed by `cycles` registers named `<name>_d1…`; reset to 0 when `resettable`. */
function delay(m: ModuleBuilder, name: string, value: Value, cycles: number, resettable: boolean): Value {
  let current = value;
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const register = m.reg(`${name}_d${cycle}`, value.width, resettable ? { reset: 0 } : {});
    register.set(current);
    current = register;
  }
  return current;
}

export const TensorLane = defineModule({
  name: 'TensorLane',
  description: 'Tensor-core lane: DotProduct4 + FP32 accumulator, 4 MACs per cycle (docs/spec.md §4.2)',
  defaults: { pipelined: 0 },
  parameterDocs: {
    pipelined: `pipeline stages in every multiplier and adder of the dot product, 0 to ${MAX_UNIT_STAGES}; acc shows a chunk 3 × pipelined + 1 cycles after its inputs`,
  },
  validate: validateUnitStages,
  ports: () => ({
    a: vec(DOT_WIDTH, input<number>(16, 'FP16 operands a[k] of this K chunk')),
    b: vec(DOT_WIDTH, input<number>(16, 'FP16 operands b[k] of this K chunk')),
    enable: input<number>(1, 'accumulate this chunk'),
    loadC: input<number>(1, 'start from c instead of acc (first chunk of an MMA)'),
    c: input<number>(32, 'FP32 C element, used with loadC'),
    acc: output<number>(32, 'FP32 accumulator (0 after reset)'),
  }),
  build(m, io, params) {
    const dotProduct = m.instance(DotProduct4, { name: 'dotProduct', params: { pipelined: params.pipelined } });
    io.a.forEach((a, k) => dotProduct.a[k]!.set(a));
    io.b.forEach((b, k) => dotProduct.b[k]!.set(b));

    const latency = dotProductLatency(params.pipelined);
    const enable = delay(m, 'enable', io.enable, latency, true);
    const loadC = delay(m, 'loadC', io.loadC, latency, false);
    const c = delay(m, 'c', io.c, latency, false);

    const accumulator = m.reg('accumulator', 32, { reset: 0 });
    const accumulate = m.instance(Fp32Adder, { name: 'accumulate' });
    accumulate.a.set(mux(loadC, c, accumulator));
    accumulate.b.set(dotProduct.dot);
    m.when(enable, () => accumulator.set(accumulate.s));
    io.acc.set(accumulator);
  },
});
