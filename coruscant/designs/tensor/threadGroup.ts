/**
 * Volta's thread group (docs/spec.md §4.2): four TensorLanes, one per thread of the group, stepping
 * together. Lane i of the group is thread 4·g + i of the warp (g = the group's index).
 */
import { defineModule } from '../../../api/index.ts';
import { MAX_UNIT_STAGES, validateUnitStages } from './dotProduct4.ts';
import { TensorLane } from './tensorLane.ts';
import { connectLane, laneGroupPorts } from './laneGroup.ts';

/** Lanes per thread group. */
export const THREAD_GROUP_LANES = 4;

/** The `pipelined` parameter every level of the hierarchy passes down to its FP units. */
export const PIPELINED_DOC = `pipeline stages in every multiplier and adder, 0 to ${MAX_UNIT_STAGES} (see TensorLane)`;

export const ThreadGroup = defineModule({
  name: 'ThreadGroup',
  description: 'Four tensor lanes stepping together (16 MACs per cycle)',
  defaults: { pipelined: 0 },
  parameterDocs: { pipelined: PIPELINED_DOC },
  validate: validateUnitStages,
  ports: () => laneGroupPorts(THREAD_GROUP_LANES),
  build(m, io, params) {
    io.lane.forEach((lane, index) => {
      const tensorLane = m.instance(TensorLane, { name: `lane${index}`, params: { pipelined: params.pipelined } });
      tensorLane.enable.set(io.enable);
      tensorLane.loadC.set(io.loadC);
      connectLane(tensorLane, lane);
    });
  },
});
