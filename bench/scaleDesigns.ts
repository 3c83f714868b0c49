/**
 * Synthetic designs whose size is one number, for scale tests and `bench/scale.ts`: a long
 * combinational chain, a long chain of instances, and a very wide datapath.
 */
import { defineModule, input, output } from '../hw/core/index.ts';
import type { Value } from '../hw/core/index.ts';

/**
 * `nodes` operators in one combinational chain from `x` to `y` (alternating add and xor with
 * distinct constants, so nothing folds away): the depth that recursive passes would overflow on.
 */
export const ChainDesign = defineModule({
  name: 'ScaleChain',
  description: 'a chain of N add/xor operators (scale test)',
  defaults: { nodes: 1000 },
  ports: () => ({ x: input(32), y: output(32) }),
  build(m, io, p) {
    let value: Value = io.x;
    for (let index = 0; index < p.nodes; index++)
      value = index % 2 === 0 ? value.add((index * 2654435761) >>> 0) : value.xor(index);
    io.y.set(value);
  },
});

/** One registered stage: `q <= d + 1` (a register and an adder per instance). */
export const ScaleStage = defineModule({
  name: 'ScaleStage',
  description: 'one registered increment stage (scale test)',
  defaults: {},
  ports: () => ({ d: input(16), q: output(16) }),
  build(m, io) {
    const state = m.reg('state', 16, { reset: 0 });
    state.set(io.d.add(1));
    io.q.set(state);
  },
});

/** `instances` ScaleStage instances in a pipeline: the hierarchy width that flattening and naming must handle. */
export const InstanceChainDesign = defineModule({
  name: 'ScaleInstances',
  description: 'a pipeline of N registered stages, one instance each (scale test)',
  defaults: { instances: 100 },
  ports: () => ({ x: input(16), y: output(16) }),
  build(m, io, p) {
    let value: Value = io.x;
    for (let index = 0; index < p.instances; index++) {
      const stage = m.instance(ScaleStage, { name: `stage${index}` });
      stage.d.set(value);
      value = stage.q;
    }
    io.y.set(value);
  },
});

/** A `width`-bit accumulator with xor mixing and a reduction: wide arithmetic in every backend. */
export const WideDesign = defineModule({
  name: 'ScaleWide',
  description: 'a W-bit accumulator with add, xor, shift and reductions (scale test)',
  defaults: { width: 4096 },
  ports: (p) => ({ x: input(p.width), sum: output(p.width), parity: output(1) }),
  build(m, io, p) {
    const accumulator = m.reg('accumulator', p.width, { reset: 0 });
    accumulator.set(accumulator.add(io.x).xor(accumulator.shr(7)));
    io.sum.set(accumulator);
    io.parity.set(accumulator.xorReduce());
  },
});
