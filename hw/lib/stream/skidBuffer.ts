import { defineModule, flip, mux } from '../../core/index.ts';
import { assertStreamProtocol, fire, Stream } from './stream.ts';

/**
 * A pipeline register stage for a stream that cuts both directions: `out` comes from a register,
 * and so does `in.ready` (a second, "skid" register catches the word that arrives in the cycle the
 * consumer stalls). Full throughput: one word per cycle while the consumer is ready.
 */
export const SkidBuffer = defineModule({
  name: 'SkidBuffer',
  description: 'Valid-ready pipeline stage with registered ready (skid buffer)',
  defaults: { width: 8 },
  parameterDocs: { width: 'word width in bits' },
  ports: (p) => ({ in: flip(Stream(p.width)), out: Stream(p.width) }),
  build(m, io, p) {
    const mainValid = m.reg('main_valid', 1, { reset: 0 });
    const mainData = m.reg('main_data', p.width, { reset: 0 });
    const skidValid = m.reg('skid_valid', 1, { reset: 0 });
    const skidData = m.reg('skid_data', p.width, { reset: 0 });
    io.in.ready.set(skidValid.not());
    io.out.valid.set(mainValid);
    io.out.data.set(mainData);
    const accepted = m.named('accepted', fire(io.in));
    const canLoad = m.named('can_load', mainValid.not().or(io.out.ready));
    m.when(canLoad, () => {
      mainValid.set(skidValid.or(accepted));
      m.when(skidValid.or(accepted), () => mainData.set(mux(skidValid, skidData, io.in.data)));
      skidValid.set(m.lit(0, 1));
    }).otherwise(() => {
      m.when(accepted, () => {
        skidValid.set(m.lit(1, 1));
        skidData.set(io.in.data);
      });
    });
    assertStreamProtocol(m, io.out, 'out');
  },
});
