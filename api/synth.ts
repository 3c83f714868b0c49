/**
 * `coruscant-hdl/synth`: synthesis to the project's 45 nm cell library with Yosys (the bundled
 * WebAssembly build or the system one): area, power from simulated toggles, timing (OpenSTA or
 * the built-in longest path), per block, scaled to 7 nm.
 */
export {
  /** The whole flow for Verilog files and a top: mapping, gate-level activity, timing, the per-block report. */
  synthesizeDesign,
  /** Options of the flow: Yosys engine, clock, stimulus for power, nodes, timing engine, composition. */
  type SynthesizeOptions,
  /** What the flow reports: per component area, power and timing at 45 nm and the target node. */
  type SynthReport,
  /** The report, the mapped netlist and OpenSTA's text. */
  type SynthesisResult,
  /** One block of the report. */
  type ComponentReport,
} from '../synth/synthesizeDesign.ts';
export {
  /** Memories of at least this many bits (1024) are SRAM macros in synthesis unless `sramThresholdBits` says otherwise. */
  DEFAULT_SRAM_THRESHOLD_BITS,
  /** Area, leakage and per-cycle access energy of a words × width SRAM macro at 45 nm, from the fakeram45/CACTI table (docs/reference/sram45.md). */
  sramFigures,
  /** One SRAM macro of a synthesis report: shape, ports, 45 nm and target-node figures. */
  type SramMacroReport,
} from '../synth/sramMacro.ts';
export {
  /** The report as the text table `gen synth` prints. */
  formatSynthReport,
  /** The area and power bar chart of a report, as SVG. */
  reportChartSvg,
} from '../synth/reportText.ts';
export {
  /** What the gate-level netlist is simulated on for power: a workload (seeded random inputs, …) for some cycles, or given input vectors. */
  type ActivityStimulus,
} from '../synth/activity.ts';
export {
  /** A technology point: node (45/14/10/7 nm), flavor (HP/LP) and supply voltage. */
  type TechPoint,
  /** The default source point of scaling, 45 nm HP at 1.1 V. */
  defaultSource,
  /** The default target point of scaling, 7 nm HP at 0.7 V. */
  defaultTarget,
} from '../synth/scaling.ts';
export {
  /** The Yosys to run: the system one or the WebAssembly build (`fastest`: the quickest that is here). */
  findYosys,
  /** Whether a program is on PATH. */
  onPath,
} from '../tools/toolchain.ts';
export {
  /** One cycle of input values for the gate-level simulation, by port name (a workload's `vectors` returns these). */
  type InputVector,
} from '../synth/sim/gateStimulus.ts';
