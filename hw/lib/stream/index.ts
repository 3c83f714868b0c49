/** Valid-ready streams: the interface, its protocol assertions, and the blocks around it; valid-only Flows. */
export { Stream, fire, assertStreamProtocol, type StreamIo } from './stream.ts';
export { Flow, type FlowIo } from './flow.ts';
export { flowOf, type FlowOf } from '../../core/index.ts';
export { StreamFifo } from './fifo.ts';
export { SkidBuffer } from './skidBuffer.ts';
export { RoundRobinArbiter } from './arbiter.ts';
export { StreamFork, StreamJoin } from './forkJoin.ts';
export { FifoModel, SkidModel, ArbiterModel, ForkModel, JoinModel, ChainModel, type StreamModel } from './models.ts';
