/** Volta's tensor core (docs/spec.md §4.2): two octets, sixteen lanes, 64 MACs per cycle. */
import { defineModule } from '../../../api/index.ts';
import { validateUnitStages } from './dotProduct4.ts';
import { OCTET_LANES, Octet } from './octet.ts';
import { PIPELINED_DOC } from './threadGroup.ts';
import { connectSubgroups, laneGroupPorts } from './laneGroup.ts';

/** Lanes per tensor core. */
export const TENSOR_CORE_LANES = 2 * OCTET_LANES;

export const TensorCore = defineModule({
  name: 'TensorCore',
  description: "Two octets: sixteen tensor lanes (64 MACs per cycle, Volta's tensor core)",
  defaults: { pipelined: 0 },
  parameterDocs: { pipelined: PIPELINED_DOC },
  validate: validateUnitStages,
  ports: () => laneGroupPorts(TENSOR_CORE_LANES),
  build(m, io, params) {
    connectSubgroups(
      io,
      [0, 1].map((index) => m.instance(Octet, { name: `octet${index}`, params: { pipelined: params.pipelined } })),
    );
  },
});
