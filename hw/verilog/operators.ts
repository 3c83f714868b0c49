import type { CellOp } from '../ir/ir.ts';

/** Sized Verilog literal: decimal up to 32 bits (reads naturally), hex above (`128'h…`). */
export function literal(value: bigint, width: number): string {
  return width <= 32 ? `${width}'d${value.toString(10)}` : `${width}'h${value.toString(16)}`;
}

/** `a` zero-extended from `from` to `to` bits; a concatenation, so `a` is self-determined inside it. */
export function zeroExtend(a: string, from: number, to: number): string {
  return to === from ? a : `{${literal(0n, to - from)}, ${a}}`;
}

/** What an operator template gets: rendered operands, their widths, the result width, slice bounds. */
export interface OperandText {
  /** Operands as text: identifiers, literals or parenthesized inlined expressions. */
  readonly args: readonly string[];
  readonly widths: readonly number[];
  readonly width: number;
  readonly hi?: number;
  readonly lo?: number;
  /** op 'memread': the memory's Verilog name */
  readonly memory?: string;
}

type Template = (x: OperandText) => string;

/**
 * `a` with its sign bit inverted: two's-complement order becomes unsigned order, so a signed
 * comparison is an unsigned one of flipped operands. Used instead of `$signed(a) < $signed(b)`
 * because Verilator 5.006 (Debian bookworm) compares `$signed` operands without trimming bits
 * above the operand width and gets some of them wrong (verilator/verilator#4174; found by the
 * differential fuzz, e.g. `$signed(x) < $signed({9'd0, y})` with a 23-bit difference y).
 */
function signFlipped(a: string, width: number): string {
  return `(${a} ^ ${width}'h${(1n << BigInt(width - 1)).toString(16)})`;
}

/** Widest operand Verilator 5.006 evaluates in one machine word (QData); wider ones are expanded into 32-bit words. */
const WORD_LIMIT = 64;

/** `[hi:lo]` chunks of at most {@link WORD_LIMIT} bits covering `width` bits, lowest first. */
function chunks(width: number): { hi: number; lo: number }[] {
  const parts: { hi: number; lo: number }[] = [];
  for (let lo = 0; lo < width; lo += WORD_LIMIT) parts.push({ hi: Math.min(width, lo + WORD_LIMIT) - 1, lo });
  return parts;
}

function bits(a: string, { hi, lo }: { hi: number; lo: number }): string {
  return hi === lo ? `${a}[${lo}]` : `${a}[${hi}:${lo}]`;
}

/**
 * A reduction or equality over more than 64 bits, written as one over each ≤ 64-bit chunk, joined
 * with `join` (`|a` = `(|a[63:0]) | (|a[76:64])`, `a == b` = `(a[63:0] == b[63:0]) & (…)`), equal
 * by construction. Verilator 5.006 expands a wide `|`, `&`, `==` or `!=` into words and replaces it
 * with a 1-bit compare; when that compare then folds to the constant 1 (`|~{76'h0, x}`: the upper
 * words are constant ones), the constant keeps a 1-bit C++ width, and a wide `^`, `|`, `&` or
 * concatenation it is zero-extended into takes it for an all-ones word 0 (`y ^ {79'h0, 1}` becomes
 * `~y` in word 0). Fixed upstream in 2025 (verilator/verilator#5953, PR #5975); found by the
 * differential fuzz. A wide `^~{76'h0, x}` stops Verilator 5.006 with an internal error ("Reduction
 * over single bit value should have been folded"), so `^` goes by chunks too. Nothing of 64 bits
 * or fewer is expanded, so the chunks are never folded there.
 */
function chunked(width: number, join: '|' | '&' | '^', part: (chunk: { hi: number; lo: number }) => string): string {
  return chunks(width)
    .map((chunk) => `(${part(chunk)})`)
    .join(` ${join} `);
}

/** Operators that are written in chunks (and need named operands) above {@link WORD_LIMIT} bits. */
const CHUNKED_ABOVE_WORD: ReadonlySet<CellOp> = new Set(['redor', 'redand', 'redxor', 'eq', 'ne']);

/**
 * Every cell operator as Verilog, matching hw/ir/evaluate.ts bit for bit. Operands of equal width
 * keep Verilog's context-width rules from extending anything; the operators whose result is wider
 * than an operand (mul, zext, sext) extend explicitly inside concatenations, which are
 * self-determined. Shifts by ≥ width give 0 (or sign fill for `>>>`) in Verilog too.
 */
const TEMPLATES: Record<Exclude<CellOp, 'const'>, Template> = {
  buf: ({ args: [a] }) => a!,
  not: ({ args: [a] }) => `~${a}`,
  neg: ({ args: [a] }) => `-${a}`,
  redand: ({ args: [a], widths: [w] }) =>
    w! > WORD_LIMIT ? chunked(w!, '&', (chunk) => `&${bits(a!, chunk)}`) : `&${a}`,
  redor: ({ args: [a], widths: [w] }) =>
    w! > WORD_LIMIT ? chunked(w!, '|', (chunk) => `|${bits(a!, chunk)}`) : `|${a}`,
  redxor: ({ args: [a], widths: [w] }) =>
    w! > WORD_LIMIT ? chunked(w!, '^', (chunk) => `^${bits(a!, chunk)}`) : `^${a}`,
  and: ({ args: [a, b] }) => `${a} & ${b}`,
  or: ({ args: [a, b] }) => `${a} | ${b}`,
  xor: ({ args: [a, b] }) => `${a} ^ ${b}`,
  add: ({ args: [a, b] }) => `${a} + ${b}`,
  sub: ({ args: [a, b] }) => `${a} - ${b}`,
  mul: ({ args: [a, b], widths: [wa, wb], width }) => `${zeroExtend(a!, wa!, width)} * ${zeroExtend(b!, wb!, width)}`,
  eq: ({ args: [a, b], widths: [w] }) =>
    w! > WORD_LIMIT ? chunked(w!, '&', (chunk) => `${bits(a!, chunk)} == ${bits(b!, chunk)}`) : `${a} == ${b}`,
  ne: ({ args: [a, b], widths: [w] }) =>
    w! > WORD_LIMIT ? chunked(w!, '|', (chunk) => `${bits(a!, chunk)} != ${bits(b!, chunk)}`) : `${a} != ${b}`,
  ltu: ({ args: [a, b] }) => `${a} < ${b}`,
  leu: ({ args: [a, b] }) => `${a} <= ${b}`,
  lts: ({ args: [a, b], widths: [w] }) => `${signFlipped(a!, w!)} < ${signFlipped(b!, w!)}`,
  les: ({ args: [a, b], widths: [w] }) => `${signFlipped(a!, w!)} <= ${signFlipped(b!, w!)}`,
  shl: ({ args: [a, b] }) => `${a} << ${b}`,
  shr: ({ args: [a, b] }) => `${a} >> ${b}`,
  // Only ever the whole right-hand side of an assign: inside an unsigned expression Verilog would
  // turn `>>>` into a logical shift (signedness propagates down into context-determined operands).
  sra: ({ args: [a, b] }) => `$signed(${a}) >>> ${b}`,
  mux: ({ args: [s, a, b] }) => `${s} ? ${a} : ${b}`,
  cat: ({ args }) => `{${args.join(', ')}}`,
  // slice and sext need their operand to be an identifier (Verilog-2005 selects bits of names only).
  slice: ({ args: [a], widths: [wa], hi, lo }) =>
    hi! - lo! + 1 === wa ? a! : hi === lo ? `${a}[${lo}]` : `${a}[${hi}:${lo}]`,
  zext: ({ args: [a], widths: [wa], width }) => zeroExtend(a!, wa!, width),
  sext: ({ args: [a], widths: [wa], width }) =>
    wa === 1 ? `{${width}{${a}}}` : `{{${width - wa!}{${a}[${wa! - 1}]}}, ${a}}`,
  memread: ({ args: [address], memory }) => `${memory}[${address}]`,
};

/** Operators whose first operand must be a declared name rather than an inlined expression. */
export const NEEDS_NAMED_OPERAND: ReadonlySet<CellOp> = new Set(['slice', 'sext']);

/**
 * Which operands of a cell must be declared names rather than inlined expressions (or literals):
 * Verilog-2005 selects bits of names only, so the first operand of `slice`/`sext` and every
 * operand of a reduction or equality written in chunks (above 64 bits, see `chunked`).
 */
export function namedOperands(op: CellOp, widths: readonly number[]): number[] {
  if (NEEDS_NAMED_OPERAND.has(op)) return [0];
  if (CHUNKED_ABOVE_WORD.has(op) && widths[0]! > WORD_LIMIT) return widths.map((_, index) => index);
  return [];
}

/** Operators whose result must be a net of its own (never inlined into a larger expression). */
export const NEVER_INLINED: ReadonlySet<CellOp> = new Set(['sra']);

/** Operators whose text is a primary (identifier, select, concatenation) and needs no parentheses. */
const PRIMARY: ReadonlySet<CellOp> = new Set(['buf', 'cat', 'slice', 'zext', 'sext', 'memread', 'const']);

/** The Verilog expression of one cell. */
export function renderOperator(op: Exclude<CellOp, 'const'>, operands: OperandText): string {
  return TEMPLATES[op](operands);
}

/** The cell's expression ready to stand as an operand of another expression. */
export function asOperand(op: CellOp, text: string): string {
  return PRIMARY.has(op) ? text : `(${text})`;
}
