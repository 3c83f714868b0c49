/**
 * Small combinational building blocks shared by the floating-point units: IEEE field unpacking,
 * a leading-zero counter, a sticky-preserving right shifter, and optional pipeline cuts.
 */
import { Value, bitsFor, cat, constant, mux, type ModuleBuilder } from '../../../api/index.ts';

/** Field widths of an IEEE 754 binary format. */
export interface FloatFormat {
  readonly exponentBits: number;
  readonly fractionBits: number;
}

export const FP16: FloatFormat = { exponentBits: 5, fractionBits: 10 };
export const FP32: FloatFormat = { exponentBits: 8, fractionBits: 23 };

/** The decoded fields and class flags of one IEEE operand. */
export interface UnpackedFloat {
  readonly sign: Value;
  /** The significand with its implicit bit (0 for zeros and subnormals): fractionBits + 1 bits. */
  readonly significand: Value;
  /**
   * The biased exponent as the arithmetic sees it: subnormals use 1, not 0, because they share
   * the smallest normal's scale (IEEE 754 §3.4); exponentBits wide.
   */
  readonly exponent: Value;
  readonly isZero: Value;
  readonly isInfinity: Value;
  readonly isNaN: Value;
}

/** Splits an IEEE pattern into sign, significand (implicit bit made explicit) and scale. */
export function unpackFloat(bits: Value, format: FloatFormat): UnpackedFloat {
  const { exponentBits, fractionBits } = format;
  const fraction = bits.bits(fractionBits - 1, 0);
  const field = bits.bits(fractionBits + exponentBits - 1, fractionBits);
  const exponentZero = field.eq(0);
  const exponentOnes = field.andReduce();
  const fractionZero = fraction.eq(0);
  return {
    sign: bits.msb(),
    significand: cat(exponentZero.not(), fraction),
    exponent: mux(exponentZero, constant(1, exponentBits), field),
    isZero: exponentZero.and(fractionZero),
    isInfinity: exponentOnes.and(fractionZero),
    isNaN: exponentOnes.and(fractionZero.not()),
  };
}

/**
 * Counts the leading zeros of `value`: a log-depth tree (each node keeps "upper half all zero"
 * and the count below it). The result has bitsFor(width) bits and is `width` for a zero value.
 */
export function leadingZeros(value: Value): Value {
  const width = value.width;
  let levels = 0;
  while (2 ** levels < width) levels++;
  // Zeros appended below the LSB never change the count of a nonzero value.
  const padded = 2 ** levels === width ? value : cat(value, constant(0, 2 ** levels - width));
  const count = (node: Value): { zero: Value; count: Value | undefined } => {
    if (node.width === 1) return { zero: node.not(), count: undefined };
    const half = node.width / 2;
    const upper = count(node.bits(node.width - 1, half));
    const lower = count(node.bits(half - 1, 0));
    // With one-bit halves there is no count below: the node's count is "upper bit is zero".
    const nodeCount =
      upper.count && lower.count ? cat(upper.zero, mux(upper.zero, lower.count, upper.count)) : upper.zero;
    return { zero: upper.zero.and(lower.zero), count: nodeCount };
  };
  const tree = count(padded);
  const resultWidth = bitsFor(width);
  const nonzeroCount = (tree.count ?? constant(0, 1)).zext(resultWidth);
  return mux(tree.zero, constant(width, resultWidth), nonzeroCount);
}

/**
 * `value >> amount` keeping every shifted-out 1 as a sticky bit ORed into the LSB, so rounding
 * still sees that the discarded tail was nonzero. Amounts ≥ width shift everything into sticky.
 */
export function shiftRightSticky(value: Value, amount: Value): Value {
  const width = value.width;
  const shifted = value.shr(amount);
  const keptMask = constant(2n ** BigInt(width) - 1n, width).shl(amount);
  const lost = value.and(keptMask.not()).orReduce();
  if (width === 1) return shifted.or(lost);
  return cat(shifted.bits(width - 1, 1), shifted.bit(0).or(lost));
}

/** Saturates an unsigned amount to `width` bits (all ones when it does not fit). */
export function saturate(amount: Value, width: number): Value {
  if (amount.width <= width) return amount.zext(width);
  const overflow = amount.bits(amount.width - 1, width).orReduce();
  return mux(overflow, constant(2 ** width - 1, width), amount.bits(width - 1, 0));
}

/** Signals crossing a pipeline cut, by name. */
export type StageSignals = Readonly<Record<string, Value>>;

/**
 * A pipeline cut: every signal crossing it is named `<stage>_<signal>`, so waveforms and Verilog
 * show the same names whether or not the cut is `registered` (then a register, one cycle of
 * latency; otherwise a wire).
 */
export function pipelineCut<T extends StageSignals>(
  m: ModuleBuilder,
  stage: string,
  signals: T,
  registered: boolean,
): T {
  const out: Record<string, Value> = {};
  for (const [name, value] of Object.entries(signals)) {
    if (registered) {
      const register = m.reg(`${stage}_${name}`, value.width);
      register.set(value);
      out[name] = register;
    } else out[name] = m.named(`${stage}_${name}`, value);
  }
  return out as T;
}

/**
 * Which of a unit's cuts get registers for `stages` pipeline stages: `order[stages]` lists the
 * cut names, chosen per unit to balance the logic depth between registers.
 */
/** A module's `validate` for a `pipelined` parameter of 0 … maxStages register stages. */
export function pipelinedStagesCheck(maxStages: number): (p: { pipelined: number }) => string | undefined {
  return (p) =>
    Number.isInteger(p.pipelined) && p.pipelined >= 0 && p.pipelined <= maxStages
      ? undefined
      : `pipelined must be 0 to ${maxStages}`;
}

export function registeredCuts(order: readonly (readonly string[])[], stages: number): ReadonlySet<string> {
  return new Set(order[stages] ?? []);
}
