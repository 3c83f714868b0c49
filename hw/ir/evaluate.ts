import type { CellOp } from './ir.ts';

const mask = (width: number): bigint => (1n << BigInt(width)) - 1n;
const toSigned = (value: bigint, width: number): bigint =>
  value >> BigInt(width - 1) ? value - (1n << BigInt(width)) : value;

/** Widths an operator evaluation needs: the output's and each input's. */
export interface OperandWidths {
  readonly output: number;
  readonly inputs: readonly number[];
  readonly hi?: number;
  readonly lo?: number;
}

const shiftAmount = (value: bigint, width: number): number => (value >= BigInt(width) ? width : Number(value));

/**
 * The meaning of every cell operator on unsigned bigints: the one reference definition that
 * constant folding and the simulator's wide-value path share, and that tests hold the generated
 * fast code to.
 */
const SEMANTICS: Record<Exclude<CellOp, 'const' | 'memread'>, (x: readonly bigint[], w: OperandWidths) => bigint> = {
  buf: ([a]) => a!,
  not: ([a], w) => ~a! & mask(w.output),
  neg: ([a], w) => -a! & mask(w.output),
  redand: ([a], w) => (a === mask(w.inputs[0]!) ? 1n : 0n),
  redor: ([a]) => (a !== 0n ? 1n : 0n),
  redxor: ([a]) => {
    let parity = 0n;
    for (let v = a!; v !== 0n; v &= v - 1n) parity ^= 1n;
    return parity;
  },
  and: ([a, b]) => a! & b!,
  or: ([a, b]) => a! | b!,
  xor: ([a, b]) => a! ^ b!,
  add: ([a, b], w) => (a! + b!) & mask(w.output),
  sub: ([a, b], w) => (a! - b!) & mask(w.output),
  mul: ([a, b], w) => (a! * b!) & mask(w.output),
  eq: ([a, b]) => (a === b ? 1n : 0n),
  ne: ([a, b]) => (a !== b ? 1n : 0n),
  ltu: ([a, b]) => (a! < b! ? 1n : 0n),
  leu: ([a, b]) => (a! <= b! ? 1n : 0n),
  lts: ([a, b], w) => (toSigned(a!, w.inputs[0]!) < toSigned(b!, w.inputs[0]!) ? 1n : 0n),
  les: ([a, b], w) => (toSigned(a!, w.inputs[0]!) <= toSigned(b!, w.inputs[0]!) ? 1n : 0n),
  shl: ([a, b], w) => (a! << BigInt(shiftAmount(b!, w.output))) & mask(w.output),
  shr: ([a, b], w) => a! >> BigInt(shiftAmount(b!, w.output)),
  sra: ([a, b], w) => (toSigned(a!, w.output) >> BigInt(shiftAmount(b!, w.output))) & mask(w.output),
  mux: ([s, a, b]) => (s ? a! : b!),
  cat: (x, w) => {
    let value = 0n;
    x.forEach((part, index) => (value = (value << BigInt(w.inputs[index]!)) | part));
    return value;
  },
  slice: ([a], w) => (a! >> BigInt(w.lo!)) & mask(w.hi! - w.lo! + 1),
  zext: ([a]) => a!,
  sext: ([a], w) => toSigned(a!, w.inputs[0]!) & mask(w.output),
};

/** Evaluates one cell operator (not 'const' or 'memread') on unsigned bigint operands. */
export function evaluateOperator(
  op: Exclude<CellOp, 'const' | 'memread'>,
  inputs: readonly bigint[],
  widths: OperandWidths,
): bigint {
  return SEMANTICS[op](inputs, widths);
}
