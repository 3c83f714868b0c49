import { describe, expect, it } from 'vitest';
import { StreamFifo } from 'coruscant-hdl';
import { elaborate } from 'coruscant-hdl/ir';
import { availableEngines, createEngine } from 'coruscant-hdl/engines';
import { Scoreboard, Testbench, validReadyDriver, validReadyMonitor } from 'coruscant-hdl/sim';

// A queue from the library, checked the way a verification engineer checks a valid/ready block:
// a driver and a monitor run as concurrent processes with random stalls, and a scoreboard
// compares every word that comes out with a golden model (a queue hands each word back unchanged).
const design = elaborate(StreamFifo, { width: 8, depth: 4 });
const SEED = 7;

describe.each(availableEngines().available)('StreamFifo on %s', (engineName) => {
  it('hands back every word in order under random stalls and backpressure', async () => {
    console.log(`stall seed ${SEED}`);
    const tb = await Testbench.open(design, await createEngine(engineName));
    try {
      const words = Array.from({ length: 40 }, (_, index) => BigInt((index * 37) & 0xff));
      const board = new Scoreboard((word) => word);
      await tb.reset();
      const driver = validReadyDriver(tb, { valid: 'in_valid', ready: 'in_ready', data: 'in_data' }, words, {
        stall: 0.3,
        seed: SEED,
        onTransaction: (word) => board.input(word),
      });
      const monitor = validReadyMonitor(
        tb,
        { valid: 'out_valid', ready: 'out_ready', data: 'out_data' },
        {
          stall: 0.3,
          seed: SEED + 1,
          count: words.length,
          onTransaction: (word) => board.output(word),
        },
      );
      await tb.joinAll([driver, monitor]);
      board.finish();
      expect(board.matched).toBe(words.length);
    } finally {
      await tb.close();
    }
  });
});
