import { beforeAll, describe, expect, it } from 'vitest';
import { findTop } from '../support/registry.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { areaOf } from '../../synth/area.ts';
import { hierarchicalArea } from '../../synth/hierarchyArea.ts';
import { nangate45 } from '../../synth/library/nangate45.ts';
import { mapToCells, type MappedDesign } from '../../synth/mapToCells.ts';
import { moduleOf, splitCells } from '../../synth/netlist.ts';
import type { PowerReport } from '../../synth/power.ts';
import { synthesizeDesign } from '../../synth/synthesizeDesign.ts';
import { twinAccumulators } from './designs.ts';

/*
 * Synthesis by hierarchy and composition (what the 32-lane MmaUnit needs), with the embedded
 * Yosys on small designs: area as Σ unique-module area × instances, and power composed from one
 * measured instance, against the flat flow.
 */
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(
  `synth hierarchy: stimulus seed ${seed} (replay: FC_SEED=${seed} npx vitest run tests/synth/hierarchy.test.ts)`,
);

const libraryArea = new Map(nangate45.cells.map((cell) => [cell.name, cell.area]));

describe('hierarchical area of a two-thread BitmapDecoder', () => {
  const design = elaborate(findTop('BitmapDecoder').definition, { threads: 2 });
  const verilog = Object.fromEntries(emitVerilog(design));
  let mapped: MappedDesign;
  beforeAll(async () => {
    mapped = await mapToCells(verilog, design.top, { compose: ['BitmapThreadSlice'] });
  }, 120_000);

  it('is Σ (own cells of each unique module × its instances), and Yosys stat -top agrees', () => {
    const modules = hierarchicalArea(mapped.hierarchical, design.top, nangate45);
    const ownArea = (module: string): number =>
      splitCells(mapped.hierarchical, moduleOf(mapped.hierarchical, module)).leaves.reduce(
        (sum, [, cell]) => sum + (libraryArea.get(cell.type) ?? Number.NaN),
        0,
      );
    const byInstances = modules.reduce((sum, entry) => sum + ownArea(entry.module) * entry.instances, 0);
    const total = modules[0]!;
    expect(total).toMatchObject({ module: design.top, instances: 1 });
    expect(modules.find((entry) => entry.module === 'BitmapThreadSlice')?.instances).toBe(2);
    expect(modules.find((entry) => entry.module === 'LaneDetector')?.instances).toBe(2);
    expect(total.perInstance.area).toBeCloseTo(byInstances, 6);
    expect(total.perInstance.area).toBeCloseTo(mapped.yosysChipArea, 3);
    expect(total.perInstance.byType.reduce((sum, entry) => sum + entry.count, 0)).toBe(total.perInstance.cells);
  });

  it('splits into a flat remainder and composed instances that add up to the whole', () => {
    const modules = new Map(
      hierarchicalArea(mapped.hierarchical, design.top, nangate45).map((entry) => [entry.module, entry]),
    );
    const slice = mapped.composed?.['BitmapThreadSlice'];
    expect(slice).toBeDefined();
    const sliceArea = areaOf(moduleOf(slice!.flat, slice!.gateTop), nangate45);
    expect(sliceArea.area).toBeCloseTo(modules.get('BitmapThreadSlice')!.perInstance.area, 6);
    expect(slice!.yosysChipArea).toBeCloseTo(sliceArea.area, 3);
    const { leaves, instances } = splitCells(mapped.flat, moduleOf(mapped.flat, mapped.gateTop));
    expect(instances.map(([, cell]) => cell.type)).toEqual(['BitmapThreadSlice', 'BitmapThreadSlice']);
    const remainder = leaves.reduce((sum, [, cell]) => sum + (libraryArea.get(cell.type) ?? Number.NaN), 0);
    expect(remainder + 2 * sliceArea.area).toBeCloseTo(modules.get(design.top)!.perInstance.area, 6);
  });
});

describe('power composed from one measured instance', () => {
  const expectSamePower = (actual: PowerReport, expected: PowerReport): void => {
    for (const key of Object.keys(expected) as (keyof PowerReport)[])
      expect(actual[key], key).toBeCloseTo(expected[key], 6);
  };

  it('equals the flat flow when every instance sees the composed stimulus', async () => {
    const files = { 'twin.v': twinAccumulators.verilog };
    const stimulus = { workload: 'random' as const, cycles: 60, seed };
    // OpenSTA on both: the flat netlist, and the hierarchical one the composed flow times.
    const flat = await synthesizeDesign(files, twinAccumulators.top, { stimulus });
    const composed = await synthesizeDesign(files, twinAccumulators.top, {
      stimulus,
      compose: [{ module: 'acc8', stimulus, stimulusLabel: 'the same random inputs' }],
    });
    const rows = (report: typeof flat.report) => new Map(report.components.map((row) => [row.module, row]));
    const [flatRows, composedRows] = [rows(flat.report), rows(composed.report)];
    for (const module of [twinAccumulators.top, 'acc8']) {
      expect(composedRows.get(module)?.instances).toBe(flatRows.get(module)?.instances);
      expect(composedRows.get(module)?.cells).toBe(flatRows.get(module)?.cells);
      expect(composedRows.get(module)?.area45).toBeCloseTo(flatRows.get(module)!.area45, 6);
      expect(composedRows.get(module)?.criticalPathPs45).toBeCloseTo(flatRows.get(module)!.criticalPathPs45, 6);
    }
    expectSamePower(composedRows.get(twinAccumulators.top)!.power45, flatRows.get(twinAccumulators.top)!.power45);
    // Boundary nets are charged differently, the total alike: the composed row carries its input
    // nets and its share of the clock net (it was measured as a top), while its outputs' loads
    // outside it go to the glue; the flat flow does the opposite.
    const [composedAcc, flatAcc] = [composedRows.get('acc8')!.power45, flatRows.get('acc8')!.power45];
    expect(composedAcc.leakageUw).toBeCloseTo(flatAcc.leakageUw, 6);
    expect(composedAcc.internalUw).toBeCloseTo(flatAcc.internalUw, 6);
    expect(composedAcc.clockUw).toBeGreaterThan(flatAcc.clockUw);
    expect(flatRows.get('acc8')!.power45.internalUw).toBeGreaterThan(0);
    expect([composed.report.timing.engine, flat.report.timing.engine]).toEqual(['opensta', 'opensta']);
    expect(composed.report.composition).toEqual([
      { module: 'acc8', instances: 2, stimulus: 'the same random inputs', measuredCycles: flat.report.measuredCycles },
    ]);
  }, 60_000);
});
