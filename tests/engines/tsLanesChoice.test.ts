/**
 * When the ts engine runs streams in lanes: only when asked (`lanes` > 1). Measured on this
 * project's workloads (docs/performance.md, "What lanes measured"), the lanes model runs no faster
 * per CPU-second than one stream at a time and costs more to compile, so a plain runMany runs the
 * streams one after another.
 */
import { describe, expect, it, vi } from 'vitest';
import * as tsLanes from '../../engines/ts/tsLanes.ts';
import { TsEngine } from '../../engines/ts/tsEngine.ts';
import { defineModule, input, output } from '../../hw/core/index.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';

vi.mock('../../engines/ts/tsLanes.ts', async (original) => {
  const actual = await original<typeof tsLanes>();
  return { ...actual, runManyInLanes: vi.fn(actual.runManyInLanes) };
});

const Counter = defineModule({
  name: 'LanesChoiceCounter',
  defaults: {},
  ports: () => ({ step: input(4), count: output(8) }),
  build(m, io) {
    const count = m.reg('total', 8, { reset: 0 });
    count.set(count.add(io.step.zext(8)));
    io.count.set(count);
  },
});

describe('the ts engine’s choice of lanes', () => {
  const design = elaborate(Counter, {});
  const streams = [1, 2, 3].map((step) => Array.from({ length: 5 }, () => ({ step: BigInt(step) })));
  const inLanes = vi.mocked(tsLanes.runManyInLanes);

  it('runs several streams one after another unless lanes are asked for, with the same outputs', async () => {
    inLanes.mockClear();
    const alone = await new TsEngine().runMany(design, streams);
    expect(inLanes).not.toHaveBeenCalled();
    const laned = await new TsEngine({ lanes: 4 }).runMany(design, streams);
    expect(inLanes).toHaveBeenCalledTimes(1);
    expect(laned.map((run) => Array.from(run.frames.words))).toEqual(alone.map((run) => Array.from(run.frames.words)));
    expect(alone[2]!.outputs[4]!.count).toBe(12n);
  });
});
