/**
 * The exact FP16 × FP16 → FP32 multiplier of docs/spec.md §2 / §4.2. No rounding is ever needed: the
 * 11×11-bit significand product fits FP32's 24 bits, and every nonzero product lies between
 * 2^-48 (smallest subnormal squared) and 65504² < 2^32, all inside FP32's normal range.
 */
import { cat, constant, defineModule, input, mux, output } from '../../../api/index.ts';
import { FP16, leadingZeros, pipelineCut, pipelinedStagesCheck, registeredCuts, unpackFloat } from './lib.ts';

const CANONICAL_NAN = 0x7fc00000;
/**
 * FP32 biased exponent of the product = ea + eb + 98 − lz: the product of two significands
 * scaled by 2^-10 each is 2^(ea−15)·2^(eb−15)·P·2^-20 with P's leading one at bit 21 − lz,
 * so the unbiased exponent is ea + eb − 30 − 20 + 21 − lz = ea + eb − 29 − lz; add FP32's 127.
 */
const EXPONENT_OFFSET = 127 - 29;
const PRODUCT_BITS = 22;

/** Cut names per number of pipeline stages: the multiplier array is the deepest logic. */
const CUT_ORDER = [[], ['product'], ['product', 'normalize']] as const;

export const Fp16Multiplier = defineModule({
  name: 'Fp16Multiplier',
  description: 'Exact FP16 × FP16 product as FP32 (docs/spec.md §2): subnormals in, canonical NaN out, 0 × ∞ = NaN',
  defaults: { pipelined: 0 },
  parameterDocs: { pipelined: 'pipeline register stages, 0 (combinational) to 2; the latency in cycles' },
  validate: pipelinedStagesCheck(CUT_ORDER.length - 1),
  ports: () => ({
    a: input<number>(16, 'FP16 operand'),
    b: input<number>(16, 'FP16 operand'),
    p: output<number>(32, 'FP32 product a × b'),
  }),
  build(m, io, params) {
    const cuts = registeredCuts(CUT_ORDER, params.pipelined);
    const a = unpackFloat(io.a, FP16);
    const b = unpackFloat(io.b, FP16);

    const product = pipelineCut(
      m,
      'product',
      {
        sign: a.sign.xor(b.sign),
        significand: a.significand.mul(b.significand),
        exponentSum: a.exponent.zext(8).add(b.exponent.zext(8)),
        nan: a.isNaN.or(b.isNaN).or(a.isZero.and(b.isInfinity)).or(a.isInfinity.and(b.isZero)),
        infinity: a.isInfinity.or(b.isInfinity),
      },
      cuts.has('product'),
    );

    // Subnormal operands leave leading zeros in the product; shifting them out keeps it exact.
    const shift = m.named('normalizeShift', leadingZeros(product.significand));
    const normalized = product.significand.shl(shift);
    const normal = pipelineCut(
      m,
      'normalize',
      {
        sign: product.sign,
        fraction: cat(normalized.bits(PRODUCT_BITS - 2, 0), constant(0, 23 - (PRODUCT_BITS - 1))),
        exponent: product.exponentSum.add(EXPONENT_OFFSET).sub(shift.zext(8)),
        zero: product.significand.eq(0),
        nan: product.nan,
        infinity: product.infinity,
      },
      cuts.has('normalize'),
    );

    const infinity = cat(normal.sign, constant(0x7f800000, 31));
    const zero = cat(normal.sign, constant(0, 31));
    const finite = cat(normal.sign, normal.exponent, normal.fraction);
    io.p.set(
      mux(normal.nan, constant(CANONICAL_NAN, 32), mux(normal.infinity, infinity, mux(normal.zero, zero, finite))),
    );

    // Invariants: every NaN is the canonical one; products are exact (22 significant bits, so the
    // two lowest FP32 fraction bits are 0) and never subnormal.
    const exponent = io.p.bits(30, 23);
    const fraction = io.p.bits(22, 0);
    const isNaN = exponent.eq(0xff).and(fraction.ne(0));
    m.assert(isNaN.not().or(io.p.eq(CANONICAL_NAN)), 'a NaN product is the canonical NaN');
    m.assert(
      exponent.eq(0xff).or(io.p.bits(1, 0).eq(0)),
      'a finite product is exact: its two lowest fraction bits are 0',
    );
    m.assert(exponent.ne(0).or(fraction.eq(0)), 'a product is never subnormal');
  },
});
