/** Volta's octet (docs/spec.md §4.2): two thread groups, eight lanes (32 MACs per cycle). */
import { defineModule } from '../../../api/index.ts';
import { validateUnitStages } from './dotProduct4.ts';
import { PIPELINED_DOC, THREAD_GROUP_LANES, ThreadGroup } from './threadGroup.ts';
import { connectSubgroups, laneGroupPorts } from './laneGroup.ts';

/** Lanes per octet. */
export const OCTET_LANES = 2 * THREAD_GROUP_LANES;

export const Octet = defineModule({
  name: 'Octet',
  description: 'Two thread groups: eight tensor lanes (32 MACs per cycle)',
  defaults: { pipelined: 0 },
  parameterDocs: { pipelined: PIPELINED_DOC },
  validate: validateUnitStages,
  ports: () => laneGroupPorts(OCTET_LANES),
  build(m, io, params) {
    connectSubgroups(
      io,
      [0, 1].map((index) =>
        m.instance(ThreadGroup, { name: `threadGroup${index}`, params: { pipelined: params.pipelined } }),
      ),
    );
  },
});
