import { bitsFor, defineModule, flip, mux, output, select, vec, type Value } from '../../core/index.ts';
import { assertStreamProtocol, fire, Stream } from './stream.ts';

/**
 * A round-robin arbiter: `inputs` streams into one. Of the inputs with a word, the first after
 * the one granted last (in circular order) is passed to `out`, and `grant` says which. A grant
 * shown while `out` stalls is kept until it fires, so a newly arriving input never changes the
 * word on a stalled `out`.
 */
export const RoundRobinArbiter = defineModule({
  name: 'RoundRobinArbiter',
  description: 'Round-robin arbiter of valid-ready streams',
  defaults: { width: 8, inputs: 3 },
  parameterDocs: { width: 'word width in bits', inputs: 'streams arbitrated (2 or more)' },
  validate: (p) =>
    Number.isInteger(p.inputs) && p.inputs >= 2 && p.inputs <= 64
      ? undefined
      : `inputs ${p.inputs} must be a whole number from 2 to 64`,
  ports: (p) => ({
    in: vec(p.inputs, flip(Stream(p.width))),
    out: Stream(p.width),
    grant: output(bitsFor(p.inputs - 1)),
  }),
  build(m, io, p) {
    const n = p.inputs;
    const indexWidth = bitsFor(n - 1);
    const last = m.reg('last', indexWidth, { reset: n - 1 });
    const locked = m.reg('locked', 1, { reset: 0 });
    const lockedIndex = m.reg('locked_index', indexWidth, { reset: 0 });
    const pick = m.wire('pick', indexWidth);
    pick.set(m.lit(0, indexWidth));
    for (let previous = 0; previous < n; previous++)
      m.when(last.eq(m.lit(previous, indexWidth)), () => {
        // Lowest priority first: the last assignment that applies wins.
        for (let offset = n; offset >= 1; offset--) {
          const candidate = (previous + offset) % n;
          m.when(io.in[candidate]!.valid, () => pick.set(m.lit(candidate, indexWidth)));
        }
      });
    const chosen = m.named('chosen', mux(locked, lockedIndex, pick));
    io.out.valid.set(io.in.map((stream): Value<1> => stream.valid).reduce((a, b) => a.or(b)));
    io.out.data.set(
      select(
        chosen,
        io.in.map((stream) => stream.data),
      ),
    );
    io.grant.set(chosen);
    io.in.forEach((stream, index) =>
      stream.ready.set(io.out.ready.and(io.out.valid).and(chosen.eq(m.lit(index, indexWidth)))),
    );
    m.when(fire(io.out), () => {
      last.set(chosen);
      locked.set(m.lit(0, 1));
    }).elsewhen(io.out.valid, () => {
      locked.set(m.lit(1, 1));
      lockedIndex.set(chosen);
    });
    assertStreamProtocol(m, io.out, 'out');
  },
});
