import type { MemoryPathResult, ResourceClass } from './pathModel.ts';

const RESOURCE_NAMES: Readonly<Record<ResourceClass, string>> = {
  l1: 'L1 (per SM)',
  missQueue: 'SM miss queue',
  gpcPort: 'GPC port',
  l2Slice: 'L2 slice',
  l2Link: 'L2 partition link',
  dramBank: 'DRAM bank',
  dramChannel: 'DRAM channel bus',
};

const percent = (x: number): string => `${(100 * x).toFixed(1)} %`;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

/** A memory-path result as a short human-readable report, one fact per line. */
export function formatMemoryPathResult(result: MemoryPathResult): string {
  const gbps = (bytes: number): string =>
    result.makespanNs === 0 ? '-' : `${(bytes / result.makespanNs).toFixed(1)} GB/s`;
  const lines = [
    `profile            ${result.profile}`,
    `sector requests    ${result.sectorRequests}`,
    `time               ${result.makespanNs.toFixed(1)} ns = ${result.makespanCycles.toFixed(0)} SM cycles`,
    `latency            mean ${result.meanLatencyNs.toFixed(1)} ns (${result.meanLatencyCycles.toFixed(0)} cycles), max ${result.maxLatencyNs.toFixed(1)} ns`,
    `L1 → SM            ${mib(result.bytes.l1ToSm)}  (${gbps(result.bytes.l1ToSm)})`,
    `L2 → L1            ${mib(result.bytes.l2ToL1)}  (${gbps(result.bytes.l2ToL1)})`,
    `DRAM → L2          ${mib(result.bytes.dramToL2)}  (${gbps(result.bytes.dramToL2)})`,
    `L1 sector hits     ${percent(result.l1.hitRate)}  (${result.l1.sectorOnlyMisses} sector-only misses)`,
    `L2 sector hits     ${percent(result.l2.hitRate)}`,
    `DRAM row hits      ${percent(result.dram.rowHitRate)}  (${result.dram.rowConflicts} conflicts, ${result.dram.rowEmpty} closed-row opens)`,
    ...(Object.keys(RESOURCE_NAMES) as ResourceClass[]).map((resource) => {
      const busy = result.busy[resource];
      return `busy ${RESOURCE_NAMES[resource].padEnd(17)} ${percent(busy.utilization)} of the time (busiest #${busy.busiest})`;
    }),
    `bound by           ${result.boundingResource === 'latency' ? 'latency (no resource busy half the time)' : RESOURCE_NAMES[result.boundingResource]}`,
  ];
  return `${lines.join('\n')}\n`;
}
