import { cat, defineModule, flip, vec, type Value } from '../../core/index.ts';
import { assertStreamProtocol, fire, Stream } from './stream.ts';

const countCheck = (what: string, count: number): string | undefined =>
  Number.isInteger(count) && count >= 2 && count <= 64
    ? undefined
    : `${what} ${count} must be a whole number from 2 to 64`;

/**
 * A fork: every word of `in` goes to all `outputs` streams. Each output takes it when it is
 * ready (an output that has taken it waits for the others); `in` fires once all have.
 */
export const StreamFork = defineModule({
  name: 'StreamFork',
  description: 'Valid-ready fork: each word to every output',
  defaults: { width: 8, outputs: 2 },
  parameterDocs: { width: 'word width in bits', outputs: 'output streams (2 or more)' },
  validate: (p) => countCheck('outputs', p.outputs),
  ports: (p) => ({ in: flip(Stream(p.width)), out: vec(p.outputs, Stream(p.width)) }),
  build(m, io, p) {
    const done = Array.from({ length: p.outputs }, (_, index) => m.reg(`done_${index}`, 1, { reset: 0 }));
    io.in.ready.set(io.out.map((stream, index) => done[index]!.or(stream.ready)).reduce((a, b) => a.and(b)));
    io.out.forEach((stream, index) => {
      stream.valid.set(io.in.valid.and(done[index]!.not()));
      stream.data.set(io.in.data);
    });
    const accepted = m.named('accepted', fire(io.in));
    done.forEach((flag, index) => flag.set(accepted.not().and(flag.or(fire(io.out[index]!)))));
    io.out.forEach((stream, index) => assertStreamProtocol(m, stream, `out_${index}`));
  },
});

/**
 * A join: one word from each of `inputs` streams makes one word of `out`, their data side by side
 * (input 0 in the low bits). All inputs fire together, when `out` does.
 */
export const StreamJoin = defineModule({
  name: 'StreamJoin',
  description: 'Valid-ready join: one word from every input, concatenated',
  defaults: { width: 8, inputs: 2 },
  parameterDocs: { width: 'word width of each input in bits', inputs: 'input streams (2 or more)' },
  validate: (p) => countCheck('inputs', p.inputs),
  ports: (p) => ({ in: vec(p.inputs, flip(Stream(p.width))), out: Stream(p.width * p.inputs) }),
  build(m, io) {
    const allValid = m.named(
      'all_valid',
      io.in.map((stream): Value<1> => stream.valid).reduce((a, b) => a.and(b)),
    );
    io.out.valid.set(allValid);
    io.out.data.set(cat(...io.in.map((stream) => stream.data).reverse()));
    io.in.forEach((stream) => stream.ready.set(allValid.and(io.out.ready)));
    assertStreamProtocol(m, io.out, 'out');
  },
});
