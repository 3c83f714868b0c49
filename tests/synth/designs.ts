/** Small handwritten designs the synthesis tests run through the whole flow. */
export interface TestDesign {
  readonly top: string;
  readonly verilog: string;
}

export const adder8: TestDesign = {
  top: 'adder8',
  verilog: `module adder8(input [7:0] a, input [7:0] b, output [8:0] s);
  assign s = a + b;
endmodule
`,
};

export const counter4: TestDesign = {
  top: 'counter4',
  verilog: `module counter4(input clk, input rst, input en, output reg [3:0] q);
  always @(posedge clk)
    if (rst) q <= 4'd0;
    else if (en) q <= q + 4'd1;
endmodule
`,
};

/** A combinational 16-bit popcount inside a registered wrapper: two levels of hierarchy. */
export const registeredPopcount: TestDesign = {
  top: 'regpop',
  verilog: `module popcount16(input [15:0] x, output [4:0] n);
  integer i;
  reg [4:0] c;
  always @* begin
    c = 5'd0;
    for (i = 0; i < 16; i = i + 1) c = c + x[i];
  end
  assign n = c;
endmodule

module regpop(input clk, input rst, input [15:0] x, output reg [4:0] q);
  wire [4:0] n;
  popcount16 u_pop(.x(x), .n(n));
  always @(posedge clk)
    if (rst) q <= 5'd0;
    else q <= n;
endmodule
`,
};

/**
 * Two identical accumulators fed the same input, summed by top-level glue: composing `acc8` (one
 * instance measured, counted twice) must reproduce the flat figures exactly.
 */
export const twinAccumulators: TestDesign = {
  top: 'twinacc',
  verilog: `module acc8(input clk, input rst, input [7:0] x, output reg [7:0] q);
  always @(posedge clk)
    if (rst) q <= 8'd0;
    else q <= q + x;
endmodule

module twinacc(input clk, input rst, input [7:0] x, output [8:0] y);
  wire [7:0] a, b;
  acc8 u0(.clk(clk), .rst(rst), .x(x), .q(a));
  acc8 u1(.clk(clk), .rst(rst), .x(x), .q(b));
  assign y = a + b;
endmodule
`,
};
