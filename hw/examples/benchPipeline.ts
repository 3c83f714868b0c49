import { defineModule, input, output, bitsFor } from '../core/index.ts';
import { Popcount } from './popcount.ts';
import { Lfsr } from './lfsr.ts';
import { MacPipeline } from './macPipeline.ts';

/**
 * The benchmark workload of `make bench`: an LFSR makes 64-bit words, a popcount counts their
 * bits, and a pipelined MAC accumulates count × the low half-word. Every block is busy every cycle.
 */
export const BenchPipeline = defineModule({
  name: 'BenchPipeline',
  description: 'LFSR → 64-bit popcount → pipelined MAC (simulator benchmark)',
  defaults: {},
  ports: () => ({ enable: input(1), count: output(bitsFor(64)), accumulator: output(40) }),
  build(m, io) {
    const lfsr = m.instance(Lfsr, { name: 'lfsr', params: { width: 64 } });
    lfsr.load.set(0);
    lfsr.seed.set(m.lit(0, 64));
    lfsr.enable.set(io.enable);
    const popcount = m.instance(Popcount, { name: 'popcount' });
    popcount.value.set(lfsr.state);
    const mac = m.instance(MacPipeline, { name: 'mac' });
    mac.valid.set(io.enable);
    mac.clear.set(0);
    mac.a.set(popcount.count.zext(16));
    mac.b.set(lfsr.state.bits(15, 0));
    io.count.set(popcount.count);
    io.accumulator.set(mac.accumulator);
  },
});
