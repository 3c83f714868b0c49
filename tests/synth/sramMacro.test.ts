/**
 * SRAM macros: memories of at least the threshold stay memories through synthesis and are costed
 * from the 45 nm table (docs/reference/sram45.md), not as flip-flops; smaller ones and a raised
 * threshold keep today's flip-flop mapping.
 */
import { describe, expect, it } from 'vitest';
import { elaborate } from '../../hw/ir/elaborate.ts';
import { emitVerilog } from '../../hw/verilog/emit.ts';
import { MaskedRamRom } from '../../hw/examples/maskedRamRom.ts';
import { mapToCells } from '../../synth/mapToCells.ts';
import { moduleOf } from '../../synth/netlist.ts';
import { formatSynthReport } from '../../synth/reportText.ts';
import { synthesizeDesign } from '../../synth/synthesizeDesign.ts';
import { SRAM45_TABLE, memoryDeclarations, sramPower, type SramMacro } from '../../synth/sramMacro.ts';
import { DEFAULT_SRAM_THRESHOLD_BITS, sramFigures } from '../../api/synth.ts';

const verilog = Object.fromEntries(emitVerilog(elaborate(MaskedRamRom)));

describe('the 45 nm SRAM table', () => {
  it('gives every row its own figures back, and grows with size in between', () => {
    for (const row of SRAM45_TABLE) {
      const figures = sramFigures(row.words, row.width);
      expect(figures.areaUm2).toBeCloseTo(row.areaUm2, 6);
      expect(figures.leakageUw).toBeCloseTo(row.leakageNw / 1000, 6);
      expect(figures.cycleEnergyPj).toBeCloseTo((2 * row.clockEnergyFj) / 1000, 9);
    }
    const sizes = [1024, 2048, 3200, 4096, 8192, 20000, 32768, 79872, 200000];
    const areas = sizes.map((bits) => sramFigures(bits, 1).areaUm2);
    expect([...areas].sort((a, b) => a - b)).toEqual(areas);
    // The OpenRAM cross-check of the reference file: 128 × 32 interpolates to about 2.5·10³ µm².
    expect(sramFigures(128, 32).areaUm2).toBeGreaterThan(2400);
    expect(sramFigures(128, 32).areaUm2).toBeLessThan(2600);
  });

  it('charges leakage always and every port every cycle', () => {
    const macro: SramMacro = {
      cell: 'm',
      words: 64,
      width: 32,
      readPorts: 2,
      writePorts: 1,
      figures: sramFigures(64, 32),
    };
    const { leakageUw, accessUw } = sramPower([macro], 1e9);
    expect(leakageUw).toBeCloseTo(81.6272, 4);
    // 2 × 795.762 fJ per port-cycle × 3 ports × 1e9 cycles/s = 4774.6 µW.
    expect(accessUw).toBeCloseTo(4774.572, 3);
  });

  it('finds the memories the Verilog backend declares, with their shapes; 1 Kib and up are macros by default', () => {
    expect(DEFAULT_SRAM_THRESHOLD_BITS).toBe(1024);
    expect(memoryDeclarations(verilog)).toEqual([
      { module: 'MaskedRamRom', memory: 'ram', words: 100, width: 32 },
      { module: 'MaskedRamRom', memory: 'rom', words: 20, width: 16 },
    ]);
  });
});

describe('MaskedRamRom through synthesis', () => {
  it('its 3200-bit RAM is one SRAM macro in the netlist and the report; the 320-bit ROM is logic', async () => {
    const result = await synthesizeDesign(verilog, 'MaskedRamRom', {
      stimulus: { workload: 'random', cycles: 24, seed: 3 },
      timingEngine: 'longest-path',
    });
    const macros = result.report.macros ?? [];
    expect(macros.map((macro) => [macro.cell, macro.words, macro.width, macro.readPorts, macro.writePorts])).toEqual([
      ['ram', 100, 32, 1, 1],
    ]);
    const figures = sramFigures(100, 32);
    const total = result.report.components[0]!;
    const macroRow = total.byType.find((entry) => entry.type === '$mem_v2');
    expect(macroRow).toEqual({ type: '$mem_v2', count: 1, area: figures.areaUm2 });
    // The macro's area is in the total, beside the library cells Yosys counts.
    expect(total.area45).toBeCloseTo(result.mapped.yosysChipArea + figures.areaUm2, 1);
    expect(total.power45.leakageUw).toBeGreaterThan(figures.leakageUw);
    expect(total.power45.dynamicUw).toBeGreaterThan(2 * figures.cycleEnergyPj * 1e3);
    expect(formatSynthReport(result.report)).toMatch(
      /^SRAM macro ram: 100 × 32 bits \(1 read, 1 write ports\), 1951\.\d µm², leakage \d+\.\d µW, [\d.]+ pJ per port-cycle/m,
    );
    // Not exploded: fewer flip-flops than the RAM has bits.
    const flops = total.byType.filter((entry) => entry.type.startsWith('DFF')).reduce((n, entry) => n + entry.count, 0);
    expect(flops).toBeLessThan(100);
  }, 180_000);

  it('above the threshold it stays flip-flops, as before', async () => {
    const mapped = await mapToCells(verilog, 'MaskedRamRom', { sramThresholdBits: Number.POSITIVE_INFINITY });
    const cells = Object.values(moduleOf(mapped.flat, mapped.gateTop).cells);
    expect(cells.some((cell) => cell.type === '$mem_v2')).toBe(false);
    expect(cells.filter((cell) => cell.type.startsWith('DFF')).length).toBeGreaterThanOrEqual(3200);
  }, 180_000);
});
