import type { CheckResults } from '../hw/contract/checks.ts';
import type { PrintedLine } from '../hw/ir/prints.ts';
import type { CycleRun, PortValues } from '../hw/contract/engine.ts';
import type { PortFrames } from '../hw/contract/portFrames.ts';

/**
 * A run's result over its output frames: `outputs` is decoded from them on first read (a run
 * whose caller reads only frames, or a few values, never builds an object per cycle), and both
 * are ordinary enumerable properties, so a spread or a deep comparison sees them.
 */
export function framedRun(frames: PortFrames, checks?: CheckResults, prints?: readonly PrintedLine[]): CycleRun {
  let decoded: PortValues[] | undefined;
  const run = { frames, ...(checks ? { checks } : {}), ...(prints ? { prints } : {}) };
  Object.defineProperty(run, 'outputs', { enumerable: true, get: () => (decoded ??= frames.rows()) });
  return run as CycleRun;
}
