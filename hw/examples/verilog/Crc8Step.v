// CRC-8 (polynomial x^8 + x^2 + x + 1, 0x07, no reflection): one byte per step, most
// significant bit first. A stand-in for an existing Verilog block, used through defineBlackBox
// by hw/examples/crc8Stream.ts; written by hand, not generated.
`default_nettype none

module Crc8Step (
  input  wire [7:0] crc_in,
  input  wire [7:0] data,
  output wire [7:0] crc_out
);
  wire [7:0] s0 = crc_in ^ data;
  wire [7:0] s1 = s0[7] ? ({s0[6:0], 1'b0} ^ 8'h07) : {s0[6:0], 1'b0};
  wire [7:0] s2 = s1[7] ? ({s1[6:0], 1'b0} ^ 8'h07) : {s1[6:0], 1'b0};
  wire [7:0] s3 = s2[7] ? ({s2[6:0], 1'b0} ^ 8'h07) : {s2[6:0], 1'b0};
  wire [7:0] s4 = s3[7] ? ({s3[6:0], 1'b0} ^ 8'h07) : {s3[6:0], 1'b0};
  wire [7:0] s5 = s4[7] ? ({s4[6:0], 1'b0} ^ 8'h07) : {s4[6:0], 1'b0};
  wire [7:0] s6 = s5[7] ? ({s5[6:0], 1'b0} ^ 8'h07) : {s5[6:0], 1'b0};
  wire [7:0] s7 = s6[7] ? ({s6[6:0], 1'b0} ^ 8'h07) : {s6[6:0], 1'b0};
  wire [7:0] s8 = s7[7] ? ({s7[6:0], 1'b0} ^ 8'h07) : {s7[6:0], 1'b0};
  assign crc_out = s8;
endmodule

`default_nettype wire
