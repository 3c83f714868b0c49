import { defineModule, input, output, mux } from '../core/index.ts';

/**
 * A two-stage pipelined multiply-accumulate: stage 1 registers the product, stage 2 adds it to the
 * accumulator. `clear` zeroes the accumulator (taking this cycle's product as the new start).
 */
export const MacPipeline = defineModule({
  name: 'MacPipeline',
  description: 'Pipelined multiply-accumulate (product register, then accumulator)',
  defaults: { width: 16, accumulatorWidth: 40 },
  parameterDocs: { width: 'operand width', accumulatorWidth: 'accumulator width (≥ 2·width)' },
  validate: (p) => (p.accumulatorWidth < 2 * p.width ? 'accumulatorWidth must be at least 2·width' : undefined),
  ports: (p) => ({
    valid: input(1),
    clear: input(1),
    a: input(p.width),
    b: input(p.width),
    accumulator: output(p.accumulatorWidth),
  }),
  build(m, io, p) {
    const product = m.reg('product', 2 * p.width, { reset: 0 });
    const productValid = m.reg('product_valid', 1, { reset: 0 });
    const clearPending = m.reg('clear_pending', 1, { reset: 0 });
    const accumulator = m.reg('acc', p.accumulatorWidth, { reset: 0 });
    product.set(io.a.mul(io.b));
    productValid.set(io.valid);
    clearPending.set(io.clear);
    const addend = m.named('addend', product.zext(p.accumulatorWidth));
    const zero = m.lit(0, p.accumulatorWidth);
    m.when(clearPending, () => accumulator.set(mux(productValid, addend, zero))).elsewhen(productValid, () =>
      accumulator.set(accumulator.add(addend)),
    );
    io.accumulator.set(accumulator);
  },
});
