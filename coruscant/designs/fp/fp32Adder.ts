/**
 * The FP32 adder of docs/spec.md §2 / §4.2: round to nearest even, subnormals in and out (no flush),
 * IEEE signed zeros, ∞ + (−∞) = NaN, every NaN the canonical 0x7FC00000, overflow to ∞.
 *
 * Significands travel as 27 bits: 24 (implicit bit included) + guard, round and sticky. Three
 * extra bits are enough for correct RNE (Goldberg, "What every computer scientist should know
 * about floating-point arithmetic", §Guard digits): a left shift of more than one place after a
 * subtraction happens only when the operands were at most one place apart, when nothing was lost.
 */
import { cat, constant, defineModule, input, mux, output } from '../../../api/index.ts';
import {
  FP32,
  leadingZeros,
  pipelineCut,
  pipelinedStagesCheck,
  registeredCuts,
  saturate,
  shiftRightSticky,
  unpackFloat,
} from './lib.ts';

const CANONICAL_NAN = 0x7fc00000;
const INFINITY_MAGNITUDE = 0x7f800000;
/** 24 significand bits + guard, round, sticky. */
const WORK_BITS = 27;
/** Shift amounts up to 31: from 27 places on, alignment turns the whole smaller operand into sticky. */
const SHIFT_BITS = 5;

/** Cut names per number of pipeline stages, chosen to balance the depth between registers. */
const CUT_ORDER = [[], ['sum'], ['align', 'normalize'], ['align', 'sum', 'normalize']] as const;

export const Fp32Adder = defineModule({
  name: 'Fp32Adder',
  description: 'FP32 a + b, round to nearest even, subnormals kept, IEEE signed zeros, canonical NaN (docs/spec.md §2)',
  defaults: { pipelined: 0 },
  parameterDocs: { pipelined: 'pipeline register stages, 0 (combinational) to 3; the latency in cycles' },
  validate: pipelinedStagesCheck(CUT_ORDER.length - 1),
  ports: () => ({
    a: input<number>(32, 'FP32 operand'),
    b: input<number>(32, 'FP32 operand'),
    s: output<number>(32, 'FP32 sum a + b'),
  }),
  build(m, io, params) {
    const cuts = registeredCuts(CUT_ORDER, params.pipelined);
    const a = unpackFloat(io.a, FP32);
    const b = unpackFloat(io.b, FP32);

    // Order by magnitude (exponent‖fraction compares as an integer) so the difference of
    // significands is never negative and the result takes the larger operand's sign.
    const aLarger = m.named('aLarger', io.a.bits(30, 0).ge(io.b.bits(30, 0)));
    const large = {
      sign: mux(aLarger, a.sign, b.sign),
      significand: mux(aLarger, a.significand, b.significand),
      exponent: mux(aLarger, a.exponent, b.exponent),
    };
    const small = {
      sign: mux(aLarger, b.sign, a.sign),
      significand: mux(aLarger, b.significand, a.significand),
      exponent: mux(aLarger, b.exponent, a.exponent),
    };
    const alignShift = m.named('alignShift', saturate(large.exponent.sub(small.exponent), SHIFT_BITS));
    const extend = (significand: typeof a.significand) => cat(significand, constant(0, WORK_BITS - 24));

    const aligned = pipelineCut(
      m,
      'align',
      {
        large: extend(large.significand),
        small: shiftRightSticky(extend(small.significand), alignShift),
        exponent: large.exponent,
        sign: large.sign,
        subtract: a.sign.xor(b.sign),
        nan: a.isNaN.or(b.isNaN).or(a.isInfinity.and(b.isInfinity).and(a.sign.xor(b.sign))),
        infinity: a.isInfinity.or(b.isInfinity),
        infinitySign: mux(a.isInfinity, a.sign, b.sign),
      },
      cuts.has('align'),
    );

    const wideLarge = aligned.large.zext(WORK_BITS + 1);
    const wideSmall = aligned.small.zext(WORK_BITS + 1);
    const rawSum = mux(aligned.subtract, wideLarge.sub(wideSmall), wideLarge.add(wideSmall));
    const summed = pipelineCut(
      m,
      'sum',
      {
        value: rawSum,
        exponent: aligned.exponent,
        // An exact zero is +0 unless both operands were −0 (IEEE 754 §6.3, round to nearest).
        zero: rawSum.eq(0),
        zeroSign: aligned.sign.and(aligned.subtract.not()),
        sign: aligned.sign,
        nan: aligned.nan,
        infinity: aligned.infinity,
        infinitySign: aligned.infinitySign,
      },
      cuts.has('sum'),
    );

    // Carry out: one place right, the lost bit joining sticky. Otherwise left by the leading
    // zeros, but never below exponent 1, so tiny results come out as subnormals.
    const carry = summed.value.msb();
    const body = summed.value.bits(WORK_BITS - 1, 0);
    const leading = leadingZeros(body).zext(8);
    const limit = summed.exponent.sub(1);
    const leftShift = m.named('normalizeShift', mux(leading.le(limit), leading, limit).bits(SHIFT_BITS - 1, 0));
    const shiftedRight = cat(summed.value.bits(WORK_BITS, 2), summed.value.bit(1).or(summed.value.bit(0)));
    const exponent9 = summed.exponent.zext(9);
    const normal = pipelineCut(
      m,
      'normalize',
      {
        value: mux(carry, shiftedRight, body.shl(leftShift)),
        exponent: mux(carry, exponent9.add(1), exponent9.sub(leftShift.zext(9))),
        zero: summed.zero,
        zeroSign: summed.zeroSign,
        sign: summed.sign,
        nan: summed.nan,
        infinity: summed.infinity,
        infinitySign: summed.infinitySign,
      },
      cuts.has('normalize'),
    );

    // Round to nearest, ties to even. Adding the increment to exponent‖fraction lets a carry out
    // of the fraction bump the exponent: subnormal → normal and largest finite → ∞ fall out.
    const significand = normal.value.bits(WORK_BITS - 1, 3);
    const guard = normal.value.bit(2);
    const roundOrSticky = normal.value.bit(1).or(normal.value.bit(0));
    const roundUp = m.named('roundUp', guard.and(roundOrSticky.or(significand.bit(0))));
    const exponentField = mux(significand.msb(), normal.exponent, constant(0, 9));
    const rounded = m.named('rounded', cat(exponentField, significand.bits(22, 0)).add(roundUp.zext(32)));
    const overflow = rounded.bits(31, 23).ge(255);

    const nan = constant(CANONICAL_NAN, 32);
    const infinity = cat(normal.infinitySign, constant(INFINITY_MAGNITUDE, 31));
    const overflowed = cat(normal.sign, constant(INFINITY_MAGNITUDE, 31));
    const zero = cat(normal.zeroSign, constant(0, 31));
    const finite = cat(normal.sign, rounded.bits(30, 0));
    io.s.set(
      mux(normal.nan, nan, mux(normal.infinity, infinity, mux(normal.zero, zero, mux(overflow, overflowed, finite)))),
    );

    // Invariant: every NaN sum is the canonical NaN (docs/spec.md §2).
    const sumIsNaN = io.s.bits(30, 23).eq(0xff).and(io.s.bits(22, 0).ne(0));
    m.assert(sumIsNaN.not().or(io.s.eq(CANONICAL_NAN)), 'a NaN sum is the canonical NaN');
  },
});
