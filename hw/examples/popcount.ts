import { defineModule, input, output, bitsFor, type Value } from '../core/index.ts';

/** Sum of the bits of `value` as a balanced adder tree, each level one bit wider. */
function adderTree(bits: Value[]): Value {
  let level = bits;
  while (level.length > 1) {
    const next: Value[] = [];
    for (let index = 0; index < level.length; index += 2) {
      const a = level[index]!;
      const b = level[index + 1];
      next.push(b === undefined ? a.zext(a.width + 1) : a.addCarry(b));
    }
    level = next;
  }
  return level[0]!;
}

/** Combinational population count (64 bits by default: the bitmap width of a Coruscant tile). */
export const Popcount = defineModule({
  name: 'Popcount',
  description: 'Combinational population count as an adder tree',
  defaults: { width: 64 },
  parameterDocs: { width: 'input width in bits' },
  validate: (p) => (p.width < 2 ? 'width must be at least 2' : undefined),
  ports: (p) => ({ value: input(p.width), count: output(bitsFor(p.width)) }),
  build(m, io, p) {
    const bits = Array.from({ length: p.width }, (_, index) => io.value.bit(index));
    const sum = adderTree(bits);
    io.count.set(sum.width > io.count.width ? sum.trunc(io.count.width) : sum.zext(io.count.width));
  },
});
