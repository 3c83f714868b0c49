/**
 * The one binary protocol between the engines and their external simulator harnesses (the
 * Verilator C++ main of verilatorHarness.ts, the Icarus testbench of icarusTestbench.ts), for
 * interactive sessions and batch runs alike: a batch run is a session that sends all its commands
 * at once and never waits. Every field is a little-endian 32-bit word; ports are numbered in
 * HarnessPorts order (inputs less the clock; outputs), values are their words least significant
 * first (`ceil(width / 32)` words).
 *
 * Commands (standard input of the harness), a header word `op | argument << 8`, then its words:
 *   OP_STREAM         a new stream: all state 0, inputs 0 (the first stream is the traced one);
 *   OP_POKE  index    the input's words follow; applied now, kept until poked again;
 *   OP_PEEK           settle, then write one outputs frame (the current cycle's `before_edge`);
 *   OP_STEP  flags    a count word follows: that many cycles of the step contract (engine.ts),
 *                     with STEP_SAMPLE an outputs frame per cycle at its sample point, with
 *                     STEP_ACK an ack frame after the last, with STEP_PEEK then the outputs
 *                     frame OP_PEEK would write next (a session's peek after a step needs no
 *                     round trip of its own);
 *   OP_WAIT  flags    a limit word, then a value frame and a mask frame (outputs frames without
 *                     header): settle and sample as OP_PEEK does; while some masked bit of the
 *                     outputs differs from the value's and fewer than `limit` cycles were run,
 *                     run one cycle as OP_STEP does and sample again; then write the last
 *                     outputs frame and an ack frame (a session's waitFor on output values, one
 *                     round trip however long the wait; the caller tells a met condition from
 *                     the limit by the outputs);
 *   OP_CLOCK_STEP flags  one step of a design with several clocks (engine.ts, hw/sim/
 *                     clockSchedule.ts): the mask of the clocks that rise in it (bit i:
 *                     `clocks[i]`), then its sample time, its edge time and the next step's
 *                     sample time, two words each; the flags as OP_STEP's;
 *   OP_FRAMES flags   a count word, then that many input frames (every input's words, portFrames.ts):
 *                     per frame, the inputs are set from it and one cycle of the step contract
 *                     runs, flags as OP_STEP's — how a batch stream of a one-clock design reaches
 *                     Verilator: its frames as they are in memory, no per-cycle work in this
 *                     process (the Icarus testbench and several clocks take pokes and steps);
 *                     With STEP_COMPARE (batch runs through files only: Engine.compare) a limit word
 *                     follows the count, with STEP_EXPECT that many expected output frames follow
 *                     the input frames, with STEP_MASK as many mask frames after them (a 0 bit is not
 *                     compared); no outputs frame is written: each cycle's outputs are folded into
 *                     the stream's FNV-1a digest (outputCompare.ts, outputDigest) and compared, and
 *                     after the last cycle one verdict goes into the frames file: the count of
 *                     (cycle, port) mismatches as two words (low first), the digest, the number of
 *                     mismatches listed (at most the limit), and per listed mismatch its cycle, its
 *                     output's index and that output's words as sampled;
 *   OP_END            close the trace and exit 0 (so does the end of the input);
 *   OP_BATCH          only to a harness started with `--serve files` (Verilator): a byte count, then
 *                     the commands file's, the frames file's and a log file's paths, each ending in a
 *                     0 byte, in that many bytes padded to whole words; the harness runs that file's
 *                     commands as a batch run through files does, with what it prints (the lines
 *                     below) going into the log file instead, then answers with an ack frame.
 * Frames (standard output), a header word whose first byte is 0, then its words:
 *   FRAME_OUTPUTS     every output's words (2-state: Verilator);
 *   FRAME_OUTPUTS_4   every output's words as (value, unknown) word pairs, VPI's aval/bval
 *                     (Icarus, whose X and Z are reported, never read as 0);
 *   FRAME_ACK         one word: the cycles stepped in this stream so far.
 * Between frames the simulator's own text lines pass through (the design's check lines, the
 * harness's GEN-STREAM and GEN-CYCLE markers, see HarnessPorts.checked): a line never starts with
 * a 0 byte, so the reader tells them apart. Nothing is text per cycle but those markers.
 *
 * Transport: sessions, and Icarus's batch runs, over the harness's standard input and output.
 * Verilator's batch runs through two files instead (`--commands` and `--frames`, see
 * verilatorHarness.ts; the harness maps the commands file and reads OP_FRAMES blocks in place):
 * the same commands, and every sampled outputs frame without its header (or the verdicts of a compare),
 * so the frames file is the run's output frames exactly as portFrames.ts holds them, read back in
 * one piece — a socket's ~300 KB buffer made every batch a ping-pong of wake-ups between the two
 * processes (BenchPipeline ran at a fifth of Verilator's speed through it).
 */
export const OP_STREAM = 1;
export const OP_POKE = 2;
export const OP_PEEK = 3;
export const OP_STEP = 4;
export const OP_END = 5;
export const OP_CLOCK_STEP = 6;
export const OP_FRAMES = 7;
export const OP_BATCH = 8;
export const OP_WAIT = 9;
export const STEP_SAMPLE = 1;
export const STEP_ACK = 2;
export const STEP_COMPARE = 4;
export const STEP_EXPECT = 8;
export const STEP_MASK = 16;
export const STEP_PEEK = 32;
export const FRAME_OUTPUTS = 0x4f00;
export const FRAME_OUTPUTS_4 = 0x5800;
export const FRAME_ACK = 0x4100;

/**
 * The protocol's numbers by name: the one definition the static harness sources read, through the
 * constants their generated port tables declare (engines/verilator/verilatorHarness.ts,
 * engines/icarus/icarusTestbench.ts), so no C++ or Verilog repeats a number by hand.
 */
export const PROTOCOL_NUMBERS = {
  OP_STREAM,
  OP_POKE,
  OP_PEEK,
  OP_STEP,
  OP_END,
  OP_CLOCK_STEP,
  OP_FRAMES,
  OP_BATCH,
  OP_WAIT,
  STEP_SAMPLE,
  STEP_ACK,
  STEP_COMPARE,
  STEP_EXPECT,
  STEP_MASK,
  STEP_PEEK,
  FRAME_OUTPUTS,
  FRAME_OUTPUTS_4,
  FRAME_ACK,
} as const;
