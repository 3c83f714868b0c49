/**
 * Yosys for the synthesis flow: the runner and the choice between the WebAssembly and the system
 * build live in the tool layer (tools/yosys.ts, tools/toolchain.ts); this names them for synth's users.
 */
export { findYosys, runYosysScript, yosysEngines, type YosysEngine, type YosysResult } from '../tools/yosys.ts';
