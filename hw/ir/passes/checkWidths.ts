import { WidthMismatchError } from '../../core/errors.ts';
import type { CellOp, IrCell, IrModule } from '../ir.ts';

type WidthRule = (inputs: readonly number[], cell: IrCell) => number | undefined;

const same: WidthRule = (inputs) => (inputs.every((width) => width === inputs[0]) ? inputs[0] : undefined);
const compare: WidthRule = (inputs) => (inputs[0] === inputs[1] ? 1 : undefined);
const first: WidthRule = (inputs) => inputs[0];
const one: WidthRule = () => 1;

/** The output width each operator must produce from its inputs' widths (undefined: illegal inputs). */
const RULES: Record<Exclude<CellOp, 'const' | 'zext' | 'sext' | 'memread'>, WidthRule> = {
  buf: first,
  not: first,
  neg: first,
  redand: one,
  redor: one,
  redxor: one,
  and: same,
  or: same,
  xor: same,
  add: same,
  sub: same,
  mul: (inputs) => inputs[0]! + inputs[1]!,
  eq: compare,
  ne: compare,
  ltu: compare,
  leu: compare,
  lts: compare,
  les: compare,
  shl: first,
  shr: first,
  sra: first,
  mux: (inputs) => (inputs[0] === 1 && inputs[1] === inputs[2] ? inputs[1] : undefined),
  cat: (inputs) => inputs.reduce((sum, width) => sum + width, 0),
  slice: (inputs, cell) =>
    cell.hi! < inputs[0]! && cell.lo! >= 0 && cell.hi! >= cell.lo! ? cell.hi! - cell.lo! + 1 : undefined,
};

/**
 * Every cell's widths obey its operator's rule. The DSL already refuses mismatches at the user's
 * line; this pass keeps the IR honest for anything that builds or transforms it.
 */
export function checkWidths(module: IrModule): void {
  for (const cell of module.cells) {
    const widths = cell.inputs.map((net) => module.nets[net]!.width);
    const output = module.nets[cell.output]!.width;
    let ok: boolean;
    if (cell.op === 'const') ok = cell.constant! >= 0n && cell.constant! < 1n << BigInt(output);
    else if (cell.op === 'zext' || cell.op === 'sext') ok = output >= widths[0]!;
    else if (cell.op === 'memread') ok = module.memories[cell.memory!]?.width === output;
    else ok = RULES[cell.op](widths, cell) === output;
    if (!ok)
      throw new WidthMismatchError(
        cell.location,
        `'${cell.op}' with ${widths.join(', ')}-bit operands cannot drive the ${output}-bit '${module.nets[cell.output]!.name}'`,
      );
  }
  for (const register of module.registers)
    if (module.nets[register.d]!.width !== module.nets[register.q]!.width)
      throw new WidthMismatchError(
        register.location,
        `register '${module.nets[register.q]!.name}' is fed a value of another width`,
      );
}
