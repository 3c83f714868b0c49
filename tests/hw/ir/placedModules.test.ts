import { describe, expect, it } from 'vitest';
import { defineModule, input, output } from '../../../hw/core/index.ts';
import { elaborate } from '../../../hw/ir/elaborate.ts';
import { placedModules } from '../../../hw/ir/ir.ts';

const Leaf = defineModule({
  name: 'Leaf',
  defaults: {},
  ports: () => ({ a: input(4), y: output(4) }),
  build(_m, io) {
    io.y.set(io.a);
  },
});

const Pair = defineModule({
  name: 'Pair',
  defaults: {},
  ports: () => ({ a: input(4), y: output(4) }),
  build(m, io) {
    const left = m.instance(Leaf, { name: 'left' });
    left.a.set(io.a);
    const right = m.instance(Leaf, { name: 'right' });
    right.a.set(left.y);
    io.y.set(right.y);
  },
});

const Top = defineModule({
  name: 'Top',
  defaults: {},
  ports: () => ({ a: input(4), y: output(4) }),
  build(m, io) {
    const first = m.instance(Pair, { name: 'first' });
    first.a.set(io.a);
    const last = m.instance(Leaf, { name: 'last' });
    last.a.set(first.y);
    io.y.set(last.y);
  },
});

describe('placedModules', () => {
  it('lists every instance depth first from the top, an instance before its children, children in declaration order', () => {
    const placed = placedModules(elaborate(Top)).map(({ module, scope }) => `${scope || '(top)'}: ${module.name}`);
    expect(placed).toEqual(['(top): Top', 'first: Pair', 'first.left: Leaf', 'first.right: Leaf', 'last: Leaf']);
  });
});
