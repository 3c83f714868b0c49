import { defineModule, input, output } from '../../../hw/core/index.ts';

/**
 * The example of docs/verification.md: a start/done handshake that counts `length` cycles while
 * busy. It states its invariants (assertions), what it expects of its driver (an assumption) and
 * two cover points, one reachable and one not. `bound` below `length` makes the first assertion
 * false, which `gen prove` answers with a counterexample.
 */
export const Handshake = defineModule({
  name: 'Handshake',
  description: 'start/done handshake over a busy period of `length` cycles, with its invariants',
  defaults: { length: 8, bound: 8 },
  parameterDocs: { length: 'cycles busy per start (2..16)', bound: 'the claim checked: count < bound' },
  validate: (p) => (p.length < 2 || p.length > 16 ? 'length must be 2..16' : undefined),
  ports: () => ({ start: input(1), busy: output(1), done: output(1), count: output(4) }),
  build(m, io, p) {
    const busy = m.reg('busyState', 1, { reset: 0 });
    const count = m.reg('counter', 4, { reset: 0 });
    const last = busy.and(count.eq(p.length - 1));
    m.when(busy.not().and(io.start), () => {
      busy.set(1);
      count.set(0);
    }).elsewhen(busy, () => {
      count.set(count.add(1));
      m.when(last, () => {
        busy.set(0);
        count.set(0);
      });
    });
    io.busy.set(busy);
    io.done.set(last);
    io.count.set(count);

    m.assume(busy.and(io.start).not(), 'the driver does not start while busy');
    m.assert(count.lt(p.bound), 'the count stays below bound');
    m.assert(m.past(last).not().or(busy.not()), 'idle in the cycle after done');
    m.assert(busy.or(count.eq(0)), 'the count is 0 while idle');
    m.cover(last, 'done');
    m.cover(busy.and(count.eq(15)), 'count15');
  },
});
