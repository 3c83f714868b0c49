import { defineModule, input, output } from '../core/index.ts';
import { AsyncFifo } from '../lib/cdc/index.ts';

/**
 * Two clock domains joined by an asynchronous FIFO: a producer in `prod` offers the words 0, 1,
 * 2, … while `produce` is high, a consumer in `cons` takes one per `cons` edge while `consume` is
 * high. `sent` counts the words the FIFO accepted (prod), `received` those it delivered (cons);
 * `head_valid`/`head` show the word the consumer takes at its next edge. Both domains reset
 * asynchronously; hold `rst_prod` and `rst_cons` together.
 */
export const TwoClockFifo = defineModule({
  name: 'TwoClockFifo',
  description: 'Producer and consumer in two clock domains joined by an asynchronous FIFO',
  defaults: { width: 8, depth: 4 },
  parameterDocs: { width: 'word width in bits', depth: 'FIFO words (a power of two)' },
  ports: (p) => ({
    produce: input(1),
    consume: input(1),
    sent: output(p.width),
    head_valid: output(1),
    head: output(p.width),
    received: output(p.width),
  }),
  build(m, io, p) {
    const prod = m.domain('prod', { reset: 'async' });
    const cons = m.domain('cons', { reset: 'async' });
    const fifo = m.instance(AsyncFifo, {
      name: 'fifo',
      params: { width: p.width, depth: p.depth },
      domains: { wr: prod, rd: cons },
    });
    m.withDomain(prod, () => {
      const next = m.reg('next_word', p.width, { reset: 0 });
      fifo.in.valid.set(io.produce);
      fifo.in.data.set(next);
      m.when(io.produce.and(fifo.in.ready), () => next.set(next.add(1)));
      io.sent.set(next);
    });
    m.withDomain(cons, () => {
      const received = m.reg('received_count', p.width, { reset: 0 });
      fifo.out.ready.set(io.consume);
      m.when(io.consume.and(fifo.out.valid), () => received.set(received.add(1)));
      io.received.set(received);
    });
    io.head_valid.set(fifo.out.valid);
    io.head.set(fifo.out.data);
  },
});
