import { defineModule, flip, type Value } from '../../core/index.ts';
import { fire, Stream } from '../stream/stream.ts';
import { Synchronizer } from './synchronizer.ts';

/** Binary to reflected Gray code: neighbours differ in one bit, so a synchronizer sees old or new, never a mix. */
export const toGray = (binary: Value): Value => binary.xor(binary.shr(1));

/**
 * A first-in first-out queue between two clock domains (Cummings' style): `in` is written in
 * `wr`, `out` read in `rd`. Each side keeps a binary pointer one bit wider than the address and
 * its Gray code in a register; the Gray pointers cross through two-flop synchronizers, so `full`
 * (write side) and `empty` (read side) are judged on a pointer a few edges old: pessimistic,
 * never wrong. The stored words are read combinationally across the boundary (marked as an
 * intended crossing): a word is read only after its write pointer has crossed. Both resets are
 * asynchronous; assert them together.
 */
export const AsyncFifo = defineModule({
  name: 'AsyncFifo',
  description: 'Asynchronous (dual-clock) FIFO with Gray-coded pointers',
  defaults: { width: 8, depth: 8 },
  parameterDocs: { width: 'word width in bits', depth: 'words it holds (a power of two, 2 to 65536)' },
  validate: (p) =>
    Number.isInteger(p.depth) && p.depth >= 2 && p.depth <= 1 << 16 && (p.depth & (p.depth - 1)) === 0
      ? undefined
      : `depth ${p.depth} must be a power of two from 2 to 65536`,
  ports: (p) => ({ in: flip(Stream(p.width)), out: Stream(p.width) }),
  build(m, io, p) {
    const wr = m.domain('wr', { reset: 'async' });
    const rd = m.domain('rd', { reset: 'async' });
    const words = m.memory('words', { depth: p.depth, width: p.width, domain: wr });
    const addressWidth = words.addressWidth;
    const pointerWidth = addressWidth + 1;
    // Full: the write pointer is a whole lap ahead, which in Gray code is the top two bits inverted.
    const lap = m.lit((3n << BigInt(pointerWidth - 2)) & ((1n << BigInt(pointerWidth)) - 1n), pointerWidth);

    const writeGray = m.reg('write_gray', pointerWidth, { reset: 0, domain: wr });
    const readGray = m.reg('read_gray', pointerWidth, { reset: 0, domain: rd });
    const readGrayAtWrite = m.instance(Synchronizer, {
      name: 'read_sync',
      params: { width: pointerWidth },
      domains: { dst: wr },
    });
    const writeGrayAtRead = m.instance(Synchronizer, {
      name: 'write_sync',
      params: { width: pointerWidth },
      domains: { dst: rd },
    });
    readGrayAtWrite.in.set(readGray);
    writeGrayAtRead.in.set(writeGray);

    m.withDomain(wr, () => {
      const pointer = m.reg('write_pointer', pointerWidth, { reset: 0 });
      const full = m.named('full', writeGray.eq(readGrayAtWrite.out.xor(lap)));
      io.in.ready.set(full.not());
      const push = m.named('push', fire(io.in));
      words.write(pointer.trunc(addressWidth), io.in.data, push);
      const next = pointer.add(1);
      m.when(push, () => {
        pointer.set(next);
        writeGray.set(toGray(next));
      });
    });

    m.withDomain(rd, () => {
      const pointer = m.reg('read_pointer', pointerWidth, { reset: 0 });
      const empty = m.named('empty', readGray.eq(writeGrayAtRead.out));
      io.out.valid.set(empty.not());
      io.out.data.set(m.crossing('read_data', words.read(pointer.trunc(addressWidth))));
      const pop = m.named('pop', fire(io.out));
      const next = pointer.add(1);
      m.when(pop, () => {
        pointer.set(next);
        readGray.set(toGray(next));
      });
    });
  },
});
