/** Clock-domain crossing: a two-flop synchronizer, an asynchronous FIFO and their golden checks. */
export { Synchronizer } from './synchronizer.ts';
export { AsyncFifo, toGray } from './asyncFifo.ts';
export { checkFifoTraffic, type FifoTraffic } from './models.ts';
