import { beforeAll, describe, expect, it } from 'vitest';
import { measureActivity } from '../../synth/activity.ts';
import { areaOf } from '../../synth/area.ts';
import { componentsOf } from '../../synth/components.ts';
import { gateLevelEquivalence } from '../../synth/equivalence.ts';
import { nangate45 } from '../../synth/library/nangate45.ts';
import { mapToCells, type MappedDesign } from '../../synth/mapToCells.ts';
import { moduleOf } from '../../synth/netlist.ts';
import { powerFromActivity } from '../../synth/power.ts';
import { formatSynthReport } from '../../synth/reportText.ts';
import { synthesizeDesign } from '../../synth/synthesizeDesign.ts';
import { longestPath } from '../../synth/timing/longestPath.ts';
import { criticalPath } from '../../synth/timing/sta.ts';
import { adder8, counter4, registeredPopcount, type TestDesign } from './designs.ts';

/*
 * One embedded-Yosys mapping per design, shared by every test in this file: the WebAssembly
 * Yosys is the slow part (seconds), everything after it (Icarus, OpenSTA) takes milliseconds.
 */
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`synth flow: stimulus seed ${seed} (replay: FC_SEED=${seed} npx vitest run tests/synth/flow.test.ts)`);

const designs = [adder8, counter4, registeredPopcount];
const mapped = new Map<string, MappedDesign>();
const mappedOf = (design: TestDesign): MappedDesign => {
  const found = mapped.get(design.top);
  if (!found) throw new Error(`${design.top} was not mapped`);
  return found;
};
const libraryArea = new Map(nangate45.cells.map((cell) => [cell.name, cell.area]));
const libraryLeakage = new Map(nangate45.cells.map((cell) => [cell.name, cell.leakageNw]));

beforeAll(async () => {
  for (const design of designs)
    mapped.set(design.top, await mapToCells({ [`${design.top}.v`]: design.verilog }, design.top));
});

describe.each(designs)('$top through embedded Yosys', (design) => {
  it('maps to library cells only, with area = Σ library cell areas = Yosys stat -liberty', () => {
    const result = mappedOf(design);
    const cells = Object.values(moduleOf(result.flat, result.gateTop).cells);
    expect(cells.length).toBeGreaterThan(5);
    let sum = 0;
    for (const cell of cells) {
      const area = libraryArea.get(cell.type);
      expect(area, `cell type ${cell.type}`).toBeDefined();
      sum += area ?? 0;
    }
    const report = areaOf(moduleOf(result.flat, result.gateTop), nangate45);
    expect(report.area).toBeCloseTo(sum, 9);
    expect(report.byType.reduce((total, entry) => total + entry.count, 0)).toBe(cells.length);
    expect(report.area).toBeCloseTo(result.yosysChipArea, 3);
    expect(result.log).not.toMatch(/^ERROR/m);
  });

  it('is equal to its RTL on random stimulus, cycle by cycle (Icarus)', async () => {
    const result = await gateLevelEquivalence(design.verilog, design.top, {
      cycles: 300,
      seed,
      mapped: mappedOf(design),
    });
    expect(result.firstMismatches).toEqual([]);
    expect(result).toMatchObject({ equal: true, cycles: 300, mismatches: 0 });
  });

  it('has an OpenSTA critical path equal to the built-in longest path (scalar delays)', async () => {
    const result = mappedOf(design);
    const path = await criticalPath(result);
    expect(path.engine).toBe('opensta');
    expect(path.delayPs).toBeGreaterThan(50);
    expect(path.delayPs).toBeCloseTo(longestPath(result).delayPs, 1);
    expect(path.maxClockGhz).toBeCloseTo(1000 / path.delayPs, 9);
  });
});

describe('timing fallback', () => {
  it('uses the built-in longest path, and says why, when OpenSTA is not on the PATH', async () => {
    const result = mappedOf(counter4);
    const path = process.env['PATH'];
    process.env['PATH'] = '/nonexistent';
    try {
      const timing = await criticalPath(result);
      expect(timing.engine).toBe('longest-path');
      expect(timing.fallbackReason).toMatch(/^sta: not installed \(apt-get install opensta\)/);
      expect(timing.delayPs).toBeCloseTo(longestPath(result).delayPs, 9);
    } finally {
      process.env['PATH'] = path;
    }
  });
});

describe('gate-level equivalence', () => {
  it('catches an RTL that differs from the netlist', async () => {
    const wrong = counter4.verilog.replace("q + 4'd1", "q + 4'd2");
    const result = await gateLevelEquivalence(wrong, counter4.top, { cycles: 100, seed, mapped: mappedOf(counter4) });
    expect(result.equal).toBe(false);
    expect(result.firstMismatches[0]).toMatch(/^MISMATCH cycle=\d+ port=q rtl=[0-9a-f] gate=[0-9a-f]/);
  });
});

describe('per-block breakdown', () => {
  it('gives the submodule exactly the cells of its module and the top all cells', () => {
    const result = mappedOf(registeredPopcount);
    const [top, popcount] = componentsOf(result);
    expect(top?.module).toBe('regpop');
    expect(popcount).toMatchObject({ module: 'popcount16', instances: 1 });
    const flat = moduleOf(result.flat, result.gateTop);
    expect(top?.cells.size).toBe(Object.keys(flat.cells).length);
    const own = Object.values(moduleOf(result.hierarchical, 'popcount16').cells);
    expect(popcount?.cells.size).toBe(own.length);
    const ownArea = own.reduce((sum, cell) => sum + (libraryArea.get(cell.type) ?? Number.NaN), 0);
    expect(areaOf(flat, nangate45, popcount?.cells).area).toBeCloseTo(ownArea, 9);
    for (const name of popcount?.cells ?? []) expect(name.startsWith('u_pop.')).toBe(true);
  });
});

describe('power from measured activity', () => {
  it('draws only leakage + clock on an all-zero workload, and more on random inputs', async () => {
    const result = mappedOf(registeredPopcount);
    const flat = moduleOf(result.flat, result.gateTop);
    const zeroActivity = await measureActivity(result, { workload: 'zero', cycles: 50 });
    const randomActivity = await measureActivity(result, { workload: 'random', cycles: 50, seed });
    const zero = powerFromActivity(result, zeroActivity);
    const random = powerFromActivity(result, randomActivity);
    const leakageUw =
      Object.values(flat.cells).reduce((sum, cell) => sum + (libraryLeakage.get(cell.type) ?? Number.NaN), 0) / 1000;
    expect(zero.leakageUw).toBeCloseTo(leakageUw, 9);
    expect(zero.internalUw).toBe(0);
    expect(zero.switchingUw).toBe(0);
    expect(zero.totalUw).toBeCloseTo(zero.leakageUw + zero.clockUw, 9);
    // Clock: every flop's CK pin energy twice per cycle + ½CV² of the clock net twice per cycle, at 1 GHz.
    const flops = Object.values(flat.cells).filter((cell) => cell.type === 'DFF_X1').length;
    expect(flops).toBe(5);
    const clockNetFf = flops * (0.95 + nangate45.wireCapPerFanoutFf);
    const clockFjPerCycle = flops * 2 * 3.601 + 2 * 0.5 * clockNetFf * 1.1 * 1.1;
    expect(zero.clockUw).toBeCloseTo(clockFjPerCycle * 1e-15 * 1e9 * 1e6, 6);
    expect(random.clockUw).toBeCloseTo(zero.clockUw, 9);
    expect(random.internalUw).toBeGreaterThan(0);
    expect(random.switchingUw).toBeGreaterThan(0);
    expect(random.totalUw).toBeGreaterThan(zero.totalUw);
  });

  it('rises with toggle activity: more input bits toggling, more dynamic power', async () => {
    const result = mappedOf(adder8);
    const cycles = 40;
    const vectorsWith = (bits: bigint): { a: bigint; b: bigint }[] =>
      Array.from({ length: cycles }, (_, cycle) => ({ a: cycle % 2 === 0 ? bits : 0n, b: 0n }));
    const one = powerFromActivity(result, await measureActivity(result, { vectors: vectorsWith(0x01n) }));
    const all = powerFromActivity(result, await measureActivity(result, { vectors: vectorsWith(0xffn) }));
    expect(one.dynamicUw).toBeGreaterThan(0);
    expect(all.dynamicUw).toBeGreaterThan(2 * one.dynamicUw);
    expect(all.leakageUw).toBe(one.leakageUw);
    expect(all.clockUw).toBe(0); // combinational: no flops, no clock
  });
});

describe('synthesizeDesign', () => {
  it('reports a Table-2-style breakdown at 45 nm and 7 nm', async () => {
    const { report } = await synthesizeDesign({}, registeredPopcount.top, {
      mapped: mappedOf(registeredPopcount),
      stimulus: { workload: 'random', cycles: 60, seed },
    });
    expect(report.components.map((row) => row.module)).toEqual(['regpop', 'popcount16']);
    const [total, popcount] = report.components;
    expect(total?.area45).toBeCloseTo(report.yosysChipArea, 3);
    expect(total?.areaTarget).toBeCloseTo((total?.area45 ?? 0) * 0.059, 9);
    expect(popcount?.area45).toBeLessThan(total?.area45 ?? 0);
    expect(popcount?.power45.totalUw).toBeLessThan(total?.power45.totalUw ?? 0);
    expect(total?.criticalPathPsTarget).toBeCloseTo((total?.criticalPathPs45 ?? 0) * report.factors.delay, 9);
    expect(report.timing.engine).toBe('opensta');
    expect(report.measuredCycles).toBe(60 - 3);
    const text = formatSynthReport(report);
    expect(text).toMatch(/^regpop \(total\)\s+\d+/m);
    expect(text).toMatch(/^cells: .*DFF_X1 5 \(22\.61 µm²\)/m);
  });
});
