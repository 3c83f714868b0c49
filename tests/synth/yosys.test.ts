import { hasTool } from '../../tools/toolchain.ts';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../common/errors.ts';
import { areaOf } from '../../synth/area.ts';
import { componentsOf } from '../../synth/components.ts';
import { gateLevelEquivalence } from '../../synth/equivalence.ts';
import { nangate45 } from '../../synth/library/nangate45.ts';
import { mapToCells } from '../../synth/mapToCells.ts';
import { moduleOf } from '../../synth/netlist.ts';
import { runYosysScript } from '../../tools/yosys.ts';
import { counter4 } from './designs.ts';

/** The installed Yosys, found the one way the framework finds it. */
const hasSystemYosys = hasTool('yosys');

describe('system Yosys engine', () => {
  it.skipIf(!hasSystemYosys)('maps with the Debian yosys too (same flow script)', async () => {
    const mapped = await mapToCells({ 'counter4.v': counter4.verilog }, counter4.top, { engine: 'system' });
    expect(mapped.engine).toBe('system');
    const area = areaOf(moduleOf(mapped.flat, mapped.gateTop), nangate45);
    expect(area.byType.find((entry) => entry.type === 'DFF_X1')?.count).toBe(4);
    expect(area.area).toBeCloseTo(mapped.yosysChipArea, 3);
  });

  it.skipIf(!hasSystemYosys)('maps an asynchronous reset to DFFR_X1 and stays equal to the RTL', async () => {
    const verilog = `module acount(input clk, input rst_n, input [3:0] d, output reg [3:0] q);
  always @(posedge clk or negedge rst_n)
    if (!rst_n) q <= 4'd0;
    else q <= q ^ d;
endmodule
`;
    const mapped = await mapToCells({ 'acount.v': verilog }, 'acount', { engine: 'system' });
    const area = areaOf(moduleOf(mapped.flat, mapped.gateTop), nangate45);
    expect(area.byType.find((entry) => entry.type === 'DFFR_X1')?.count).toBe(4);
    const result = await gateLevelEquivalence(verilog, 'acount', { cycles: 200, seed: 7, mapped });
    expect(result).toMatchObject({ equal: true, mismatches: 0 });
  });

  it.skipIf(!hasSystemYosys)(
    'reports generate-loop instances of a parameterized module as one readable row',
    async () => {
      const verilog = `module inc(input [3:0] a, output [3:0] y);
  assign y = a + 4'd1;
endmodule
module lane #(parameter W = 4) (input clk, input rst, input [W-1:0] x, output reg [W-1:0] q);
  wire [W-1:0] n;
  inc u_inc(.a(x), .y(n));
  always @(posedge clk) if (rst) q <= 0; else q <= q ^ n;
endmodule
module lanes(input clk, input rst, input [7:0] x, output [7:0] q);
  genvar g;
  generate for (g = 0; g < 2; g = g + 1) begin : lane_g
    lane #(.W(4)) u_lane(.clk(clk), .rst(rst), .x(x[4*g +: 4]), .q(q[4*g +: 4]));
  end endgenerate
endmodule
`;
      const mapped = await mapToCells({ 'lanes.v': verilog }, 'lanes', { engine: 'system' });
      const rows = componentsOf(mapped);
      expect(rows.map((row) => [row.displayName, row.instances])).toEqual([
        ['lanes', 1],
        ['lane(W=4)', 2],
        ['inc', 2],
      ]);
      expect([...(rows[1]?.cells ?? [])].every((name) => /^lane_g\[[01]\]\.u_lane\./.test(name))).toBe(true);
      expect(rows[1]?.cells.size).toBe(rows[0]?.cells.size);
      const result = await gateLevelEquivalence(verilog, 'lanes', { cycles: 100, seed: 3, mapped });
      expect(result.equal).toBe(true);
    },
  );

  it('names the Debian package when the binary is missing', async () => {
    const path = process.env['PATH'];
    process.env['PATH'] = '/nonexistent';
    try {
      const run = runYosysScript('', {}, [], 'system');
      await expect(run).rejects.toBeInstanceOf(ToolError);
      await expect(run).rejects.toThrow(/^yosys: not installed \(apt-get install yosys\)$/);
    } finally {
      process.env['PATH'] = path;
    }
  });

  it.skipIf(!hasSystemYosys)('reports a Verilog error with the user file name and line', async () => {
    await expect(
      mapToCells({ 'src/broken.v': 'module broken(input a, output y);\n  assign y = ;\nendmodule\n' }, 'broken', {
        engine: 'system',
      }),
    ).rejects.toThrow(/^yosys: src\/broken\.v:2: ERROR: syntax error/);
  });
});
