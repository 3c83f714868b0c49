import { defineModule, input, output } from '../../core/index.ts';

/**
 * A chain of flip-flops (two by default) that brings a signal from another clock domain into
 * `dst`: the first flop may go metastable, the others give it a cycle to settle. Its input is an
 * intended crossing (`m.crossing`), so the crossing check lets any domain drive it. A multi-bit
 * value is safe only when at most one bit changes between samples (a Gray-coded pointer, as in
 * AsyncFifo); the flops reset to 0 with `dst`, asynchronously when `asyncReset`.
 *
 * Place it with the destination domain: `m.instance(Synchronizer, { domains: { dst: fast } })`.
 */
export const Synchronizer = defineModule({
  name: 'Synchronizer',
  description: 'Two-flop synchronizer into the dst clock domain',
  defaults: { width: 1, stages: 2, asyncReset: true },
  parameterDocs: {
    width: 'bits synchronized (more than one only for Gray-coded values)',
    stages: 'flip-flops in the chain (2 or more)',
    asyncReset: 'reset the flops asynchronously (else synchronously) with dst',
  },
  validate: (p) =>
    !Number.isInteger(p.stages) || p.stages < 2 || p.stages > 8
      ? `stages ${p.stages} must be a whole number from 2 to 8`
      : undefined,
  ports: (p) => ({ in: input(p.width), out: output(p.width) }),
  build(m, io, p) {
    const dst = m.domain('dst', { reset: p.asyncReset ? 'async' : 'sync' });
    let previous = m.crossing('async_in', io.in);
    m.withDomain(dst, () => {
      for (let stage = 0; stage < p.stages; stage++) {
        const flop = m.reg(`stage${stage}`, p.width, { reset: 0 });
        flop.set(previous);
        previous = flop;
      }
    });
    io.out.set(previous);
  },
});
