import type { IrDesign } from '../../hw/ir/ir.ts';
import type { CompiledDesign } from '../../hw/sim/simulator.ts';
import { runLanes, type LaneStream } from '../../hw/sim/laneSimulator.ts';
import { frameTransfer } from '../../hw/sim/frameTransfer.ts';
import { CheckFailedError, type CheckMode } from '../../hw/contract/checks.ts';
import type { CycleRun, Stimulus } from '../../hw/contract/engine.ts';
import { framedRun } from '../framedRun.ts';
import { harnessPortsOf } from '../harness/harnessStimulus.ts';
import { PortFrames, stimulusFrames } from '../../hw/contract/portFrames.ts';

/**
 * The ts engine's runMany in lanes (hw/sim/laneSimulator.ts): the streams' frames made first,
 * then run `lanes` at a time in one model. What it returns or throws
 * is what running the streams one after another returns or throws: the outputs and checks of
 * every stream, or in stop mode the failure of the first stream (by index) that fails; a stimulus
 * that does not fit the design throws as it would when its turn came, after the streams before it.
 */
export function runManyInLanes(
  design: IrDesign,
  compiled: CompiledDesign,
  streams: readonly Stimulus[],
  options: { readonly checks?: CheckMode; readonly lanes: number },
): CycleRun[] {
  const ports = harnessPortsOf(design);
  const transfer = frameTransfer(compiled, ports.inputs, ports.outputs);
  const prepared: { stream: LaneStream; outputs: PortFrames }[] = [];
  let refused: unknown;
  for (const stimulus of streams) {
    try {
      const inputs = stimulusFrames(ports, stimulus);
      const outputs = PortFrames.empty(ports.outputs, inputs.cycles);
      prepared.push({
        stream: { frames: { inputs: inputs.words, outputs: outputs.words }, cycles: inputs.cycles },
        outputs,
      });
    } catch (error) {
      refused = error;
      break;
    }
  }
  const checkMode = options.checks ?? 'stop';
  const results = runLanes(
    compiled,
    transfer,
    prepared.map((each) => each.stream),
    { lanes: options.lanes, checkMode },
  );
  const stopped = results.find((result) => result.stopped !== undefined)?.stopped;
  if (stopped) throw new CheckFailedError(stopped, 'ts');
  if (refused !== undefined) throw refused;
  const checked = (compiled.flat.checks?.length ?? 0) > 0;
  return prepared.map((each, index) => framedRun(each.outputs, checked ? results[index]!.checks : undefined));
}
