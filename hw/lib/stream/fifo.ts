import { bitsFor, defineModule, flip, mux, output } from '../../core/index.ts';
import { assertStreamProtocol, fire, Stream } from './stream.ts';

/**
 * Words of the memory behind the queue: exactly `depth` (the pointers wrap at depth − 1, so no
 * power-of-two padding is needed), but at least 2 so that the pointers have a bit.
 */
const storageDepth = (depth: number): number => Math.max(2, depth);

/**
 * A first-in first-out queue of `depth` words (any depth from 1, not only powers of two) between
 * two streams. `out` shows the oldest word (`out.valid` while not empty); `in.ready` while not
 * full. A word written at an edge can be read from the next cycle; a full queue accepts a new word
 * only after the edge that frees a slot (no combinational path from `out.ready` to `in.ready`).
 */
export const StreamFifo = defineModule({
  name: 'StreamFifo',
  description: 'Valid-ready FIFO queue of any depth',
  defaults: { width: 8, depth: 4 },
  parameterDocs: { width: 'word width in bits', depth: 'words it holds (1 or more)' },
  validate: (p) =>
    Number.isInteger(p.depth) && p.depth >= 1 && p.depth <= 1 << 16
      ? undefined
      : `depth ${p.depth} must be a whole number from 1 to 65536`,
  ports: (p) => ({ in: flip(Stream(p.width)), out: Stream(p.width), count: output(bitsFor(p.depth)) }),
  build(m, io, p) {
    const storage = m.memory('words', { depth: storageDepth(p.depth), width: p.width });
    const pointerWidth = storage.addressWidth;
    const countWidth = bitsFor(p.depth);
    const head = m.reg('head', pointerWidth, { reset: 0 });
    const tail = m.reg('tail', pointerWidth, { reset: 0 });
    const count = m.reg('occupancy', countWidth, { reset: 0 });
    const advance = (pointer: typeof head) =>
      mux(pointer.eq(m.lit(p.depth - 1, pointerWidth)), m.lit(0, pointerWidth), pointer.add(1));
    io.in.ready.set(count.ne(m.lit(p.depth, countWidth)));
    io.out.valid.set(count.ne(m.lit(0, countWidth)));
    io.out.data.set(storage.read(head));
    io.count.set(count);
    const push = m.named('push', fire(io.in));
    const pop = m.named('pop', fire(io.out));
    storage.write(tail, io.in.data, push);
    m.when(push, () => tail.set(advance(tail)));
    m.when(pop, () => head.set(advance(head)));
    m.when(push.and(pop.not()), () => count.set(count.add(1))).elsewhen(pop.and(push.not()), () =>
      count.set(count.sub(1)),
    );
    assertStreamProtocol(m, io.out, 'out');
  },
});
