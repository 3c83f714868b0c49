// The Icarus testbench: a harness of the binary protocol (hw/contract/harnessProtocol.ts) for
// Icarus, the same for every design; what a design changes (its ports and instances, its clocks,
// how its state starts, what is traced, the protocol's numbers) is in testbench_ports.vh, which
// engines/icarus/icarusTestbench.ts writes beside it.
//
// It reads commands from standard input with $fread and writes frames to standard output with
// $fwrite's %u and %z (4-state outputs: X and Z reach the reader), where the design's $display
// lines go too, in order. It follows the step contract (hw/contract/engine.ts): pokes applied →
// settle → outputs sampled → clock rises → settle → clock falls, 10 time units per cycle; a peek
// settles with `#0` and rounds of nonblocking updates (PEEK_SETTLE_ROUNDS), so it moves no time and
// a session's waveform and outputs are the batch run's. `+vcd=FILE` asks for a VCD.
`timescale 1ns/1ns
module TOP;
  `include "testbench_ports.vh"

  // Rounds of nonblocking-assignment updates a peek lets run before it samples. A poke of an
  // asynchronous reset takes effect through `q <= 0` in the design's `always @(posedge clk or
  // posedge rst)`, which Verilog runs after every `#0`; each round waits on a nonblocking update of
  // the testbench's own (`tb_settle`, after the design's of the same time), then on `#0` for what
  // it drives. One round per link of a chain of asynchronous resets (a domain's reset input is
  // one; a black box's own Verilog may chain more); a batch sample, at its edge's time, has all.
  localparam PEEK_SETTLE_ROUNDS = 4;

  reg [63:0] tb_mask, tb_sample, tb_edge, tb_next;
  integer tb_in, tb_code, tb_i, tb_cycle;
  reg [31:0] tb_bytes, tb_word, tb_command, tb_count, tb_n, tb_stepped;
  reg [32*TB_VALUE_WORDS-1:0] tb_value;
  reg [32*TB_FRAME_WORDS-1:0] tb_want, tb_care, tb_got;
  reg tb_waiting;
  reg [8*4096-1:0] tb_vcd;
  reg tb_running, tb_eof, tb_settle = 1'b0;

  // The next little-endian word of standard input; tb_eof at its end.
  task tb_read_word;
    begin
      tb_code = $fread(tb_bytes, tb_in);
      tb_eof = tb_code != 4;
      tb_word = {tb_bytes[7:0], tb_bytes[15:8], tb_bytes[23:16], tb_bytes[31:24]};
    end
  endtask

  // A word inside a command: the input may not end there.
  task tb_need_word;
    begin
      tb_read_word;
      if (tb_eof) begin
        $fdisplay(32'h8000_0002, "harness: the input ended inside command 0x%h", tb_command);
        $fflush;
        $finish_and_return(2);
        #1;
      end
    end
  endtask

  task tb_read_value(input integer count);
    begin
      tb_value = 0;
      for (tb_i = 0; tb_i < count; tb_i = tb_i + 1) begin
        tb_need_word;
        tb_value[32*tb_i +: 32] = tb_word;
      end
    end
  endtask

  task tb_bad;
    begin
      $fdisplay(32'h8000_0002, "harness: malformed command 0x%h", tb_command);
      $fflush;
      $finish_and_return(2);
      #1;
    end
  endtask

  task tb_ack;
    $fwrite(32'h8000_0001, "%u%u", FRAME_ACK, tb_stepped);
  endtask

  // OP_PEEK: settle without moving time, then the current cycle's outputs.
  task tb_peek;
    begin
      #0;
      repeat (PEEK_SETTLE_ROUNDS) begin tb_settle <= ~tb_settle; @(tb_settle); #0; end
      tb_write_outputs;
    end
  endtask

  // The end of a cycle (or step) that sampled its outputs: its edge follows.
  task tb_sampled;
    begin
      if (TB_CHECKED) $display("GEN-CYCLE");
      if ((tb_command[31:8] & STEP_SAMPLE) != 0) tb_write_outputs;
    end
  endtask

  // The start of a cycle: the VCD of a window starts at its first cycle.
  task tb_cycle_start;
    if (TB_DUMP_FROM >= 0 && tb_cycle == TB_DUMP_FROM && $value$plusargs("vcd=%s", tb_vcd)) tb_dump;
  endtask

  // One cycle of one clock (or none): pokes settle, outputs sampled, the clock rises, and falls.
  task tb_clock_cycle;
    begin
      tb_cycle_start;
      #5;
      tb_sampled;
      tb_tick(1'b1);
      #5;
      tb_tick(1'b0);
      tb_cycle = tb_cycle + 1;
      tb_stepped = tb_stepped + 1;
    end
  endtask

  initial begin
    tb_in = $fopen("/dev/stdin", "rb");
    if (TB_DUMP_FROM < 0 && $value$plusargs("vcd=%s", tb_vcd)) tb_dump;
    tb_running = 1;
    tb_stepped = 0;
    while (tb_running) begin
      $fflush;
      tb_read_word;
      tb_command = tb_word;
      if (tb_eof) tb_command = OP_END;
      case (tb_command[7:0])
        OP_STREAM: begin
          tb_start_stream;
          tb_cycle = 0;
          tb_stepped = 0;
          // One simulation for all streams: combinational check blocks keep what they printed.
          if (TB_CHECKED) $display("GEN-STREAM-SAME");
        end
        OP_POKE: tb_poke(tb_command[31:8]);
        OP_PEEK: tb_peek;
        OP_STEP: begin
          tb_need_word;
          tb_count = tb_word;
          for (tb_n = 0; tb_n < tb_count; tb_n = tb_n + 1) tb_clock_cycle;
          if ((tb_command[31:8] & STEP_ACK) != 0) tb_ack;
          if ((tb_command[31:8] & STEP_PEEK) != 0) tb_peek;
        end
        // A wait: peek, and step while the masked outputs differ and the limit allows (harnessStimulus.ts).
        OP_WAIT: begin
          tb_need_word;
          tb_count = tb_word;
          for (tb_n = 0; tb_n < TB_FRAME_WORDS; tb_n = tb_n + 1) begin tb_need_word; tb_want[32*tb_n +: 32] = tb_word; end
          for (tb_n = 0; tb_n < TB_FRAME_WORDS; tb_n = tb_n + 1) begin tb_need_word; tb_care[32*tb_n +: 32] = tb_word; end
          // The first check settles as OP_PEEK does (the pokes just made may include an asynchronous
          // reset); after a cycle, nothing was poked and the edge's updates are 5 time units old.
          #0;
          repeat (PEEK_SETTLE_ROUNDS) begin tb_settle <= ~tb_settle; @(tb_settle); #0; end
          tb_n = 0;
          tb_sample_outputs;
          tb_waiting = ((tb_got ^ tb_want) & tb_care) !== 0 && tb_count != 0;
          while (tb_waiting) begin
            tb_clock_cycle;
            tb_n = tb_n + 1;
            #0;
            tb_sample_outputs;
            tb_waiting = ((tb_got ^ tb_want) & tb_care) !== 0 && tb_n != tb_count;
          end
          tb_write_outputs;
          tb_ack;
        end
        // One step of several clocks: the mask of those that rise, then its sample, edge and next times.
        OP_CLOCK_STEP: if (TB_CLOCKS == 0) tb_bad; else begin
          tb_need_word;
          tb_mask = tb_word;
          tb_need_word; tb_sample[31:0] = tb_word; tb_need_word; tb_sample[63:32] = tb_word;
          tb_need_word; tb_edge[31:0] = tb_word; tb_need_word; tb_edge[63:32] = tb_word;
          tb_need_word; tb_next[31:0] = tb_word; tb_need_word; tb_next[63:32] = tb_word;
          tb_cycle_start;
          #(tb_edge - tb_sample);
          tb_sampled;
          tb_clocks_rise(tb_mask);
          #(tb_next - tb_edge);
          tb_clocks_low;
          tb_cycle = tb_cycle + 1;
          tb_stepped = tb_stepped + 1;
          if ((tb_command[31:8] & STEP_ACK) != 0) tb_ack;
        end
        OP_END: tb_running = 0;
        default: tb_bad;
      endcase
    end
    $fflush;
    $finish;
  end
endmodule
