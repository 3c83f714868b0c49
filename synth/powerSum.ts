import type { PowerReport } from './power.ts';

/** No power at all: the start of a sum. */
export const noPower: PowerReport = {
  leakageUw: 0,
  clockUw: 0,
  internalUw: 0,
  switchingUw: 0,
  dynamicUw: 0,
  totalUw: 0,
};

/** `a + count × b`, item by item: adding `count` identical instances measured once. */
export function addPower(a: PowerReport, b: PowerReport, count = 1): PowerReport {
  const sum = (key: keyof PowerReport): number => a[key] + count * b[key];
  return {
    leakageUw: sum('leakageUw'),
    clockUw: sum('clockUw'),
    internalUw: sum('internalUw'),
    switchingUw: sum('switchingUw'),
    dynamicUw: sum('dynamicUw'),
    totalUw: sum('totalUw'),
  };
}
