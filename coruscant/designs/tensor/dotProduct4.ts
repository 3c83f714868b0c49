/**
 * The four-element dot product (Volta's FEDP, docs/spec.md §4.2): four exact FP16 products reduced by
 * the fixed tree (p0 + p1) + (p2 + p3) of docs/spec.md §2, each `+` a rounded FP32 add.
 */
import { defineModule, input, output, vec } from '../../../api/index.ts';
import { Fp16Multiplier } from '../fp/fp16Multiplier.ts';
import { Fp32Adder } from '../fp/fp32Adder.ts';
import { pipelinedStagesCheck } from '../fp/lib.ts';

/** Elements per dot product: K consumed per lane per cycle. */
export const DOT_WIDTH = 4;
/** Deepest per-unit pipeline every unit supports (the multiplier's). */
export const MAX_UNIT_STAGES = 2;
/** Units on the path from operands to the dot product: a multiplier and two adder levels. */
export const UNITS_ON_PATH = 3;

/** Cycles from operands to `dot` when every unit has `pipelined` stages. */
export function dotProductLatency(pipelined: number): number {
  return UNITS_ON_PATH * pipelined;
}

/** Rejects a `pipelined` value no unit on the path can build. */
export const validateUnitStages = pipelinedStagesCheck(MAX_UNIT_STAGES);

export const DotProduct4 = defineModule({
  name: 'DotProduct4',
  description: 'FP16 four-element dot product with FP32 result, (p0 + p1) + (p2 + p3) (docs/spec.md §2)',
  defaults: { pipelined: 0 },
  parameterDocs: {
    pipelined: `pipeline stages in every multiplier and adder, 0 to ${MAX_UNIT_STAGES}; latency ${UNITS_ON_PATH} × pipelined cycles`,
  },
  validate: validateUnitStages,
  ports: () => ({
    a: vec(DOT_WIDTH, input<number>(16, 'FP16 operand a[k]')),
    b: vec(DOT_WIDTH, input<number>(16, 'FP16 operand b[k]')),
    dot: output<number>(32, 'FP32 (a0·b0 + a1·b1) + (a2·b2 + a3·b3)'),
  }),
  build(m, io, params) {
    const unit = { params: { pipelined: params.pipelined } };
    const products = io.a.map((a, k) => {
      const multiplier = m.instance(Fp16Multiplier, { name: `multiplier${k}`, ...unit });
      multiplier.a.set(a);
      multiplier.b.set(io.b[k]!);
      return multiplier.p;
    });
    const add = (name: string, x: typeof io.dot, y: typeof io.dot): typeof io.dot => {
      const adder = m.instance(Fp32Adder, { name, ...unit });
      adder.a.set(x);
      adder.b.set(y);
      return adder.s;
    };
    const [p0, p1, p2, p3] = products as [typeof io.dot, typeof io.dot, typeof io.dot, typeof io.dot];
    io.dot.set(add('sumAll', add('sum01', p0, p1), add('sum23', p2, p3)));
  },
});
