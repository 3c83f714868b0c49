import { connect, defineModule, flip, wires } from '../core/index.ts';
import { SkidBuffer, Stream, StreamFifo } from '../lib/stream/index.ts';

/**
 * A stream chain built from the stream library: a FIFO of `depth` words (any depth), a skid
 * buffer, and a one-word FIFO, joined with `connect` (one call per interface, both directions).
 */
export const StreamFifoChain = defineModule({
  name: 'StreamFifoChain',
  description: 'FIFO -> skid buffer -> 1-word FIFO, valid-ready throughout',
  defaults: { width: 8, depth: 3 },
  parameterDocs: { width: 'word width in bits', depth: 'words in the first FIFO' },
  ports: (p) => ({ in: flip(Stream(p.width)), out: Stream(p.width) }),
  build(m, io, p) {
    const first = m.instance(StreamFifo, { name: 'first', params: { width: p.width, depth: p.depth } });
    const skid = m.instance(SkidBuffer, { name: 'skid', params: { width: p.width } });
    const last = m.instance(StreamFifo, { name: 'last', params: { width: p.width, depth: 1 } });
    // A named stream between the FIFO and the skid buffer, so it shows in waveforms.
    const middle = wires(m, 'middle', Stream(p.width));
    connect(first.in, io.in);
    connect(middle, first.out);
    connect(skid.in, middle);
    connect(last.in, skid.out);
    connect(io.out, last.out);
  },
});
