/**
 * The report's view of the engines: the engine table (engines/index.ts) says which programs
 * each needs, the toolchain (tools/toolchain.ts) whether they are here.
 */
export { availableEngines } from '../../api/engines.ts';
export { onPath } from '../../api/synth.ts';
