/**
 * `coruscant-hdl/verilog`: the Verilog-2005 writer. One `<Module>.v` per module, names as in the
 * source, comments citing source lines, and a manifest mapping each source signal to its
 * Verilog and VCD names.
 */
export {
  /** Verilog text of every module of a design, by file name (`<Module>.v`). */
  emitVerilog,
  /** Verilog text of one IR module. */
  emitModule,
} from '../hw/verilog/emit.ts';
export {
  /** Every output file of a design: `<Module>.v` per module and `manifest.json`. */
  verilogOutputs,
  /** Writes files into a folder so that a failure leaves none of them behind. */
  writeFilesStaged,
} from '../hw/verilog/writeDesign.ts';
export {
  /** The manifest of a design: modules, ports, parameters and the source map. */
  buildManifest,
  /** What `manifest.json` holds. */
  type VerilogManifest,
  /** One module in the manifest. */
  type ManifestModule,
  /** One port in the manifest. */
  type ManifestPort,
  /** One source signal: its source location, Verilog name and VCD name. */
  type SourceMapEntry,
} from '../hw/verilog/manifest.ts';
export {
  /** Lints Verilog with `verilator --lint-only -Wall`; resolves with the warnings (empty when clean). */
  lintWithVerilator,
  /** Checks Verilog with Yosys `hierarchy -check; proc; check -assert` (bundled WebAssembly Yosys, or `system: true`); resolves with the warnings. */
  checkWithYosys,
} from '../tools/lint.ts';
