/**
 * `coruscant-hdl/waves`: waveforms. Read and write VCD, draw traces with WaveDrom (SVG, PNG), and
 * find where two traces of one design first differ.
 */
export {
  /** Reads a VCD file (`keep` selects whose changes are kept, to save memory on big traces). */
  readVcdFile,
  /** Parses VCD text. */
  parseVcd,
  /** Reads a VCD file as readVcdFile does, handing its header and every change to handlers instead of keeping them. */
  streamVcdFile,
  /** Where streamVcdFile hands a trace: the signals, then each time and value change in file order. */
  type VcdStreamHandlers,
  /** A parsed VCD: timescale, signals with scopes, value changes. */
  type VcdTrace,
  /** One signal of a trace: scope, name, width, kind, changes. */
  type VcdSignal,
  /** Options of the readers (which signals' changes to keep). */
  type VcdReadOptions,
} from '../waves/vcdReader.ts';
export {
  /** Writes a VCD: `addSignal` each signal, `beginDump`, then `setTime`/`change`; the file takes its name at `close` (a crash leaves none). */
  VcdWriter,
  /** Options of a writer (timescale, date, version text). */
  type VcdWriterOptions,
  /** A value to write: number, bigint or a bit string. */
  type VcdWriteValue,
} from '../waves/vcdWriter.ts';
export {
  /** A WaveDrom source for a window of a trace, lanes grouped by scope. */
  traceToWaveDrom,
  /** SVG text of a WaveDrom source, drawn by the wavedrom library (no browser). */
  renderWaveDromSvg,
  /** PNG bytes of an SVG, at twice its size. */
  renderSvgToPng,
  /** A WaveDrom document. */
  type WaveDromSource,
  /** What `traceToWaveDrom` draws: signal globs, first and last cycle, how cycles are cut. */
  type WaveWindow,
} from '../waves/wavedrom.ts';
export {
  /** The first time (or cycle) two traces of one design differ, and every signal differing there. */
  findDivergence,
  /** How traces are matched and compared (name stripping, cycle alignment, x/z as don't-care). */
  type DivergenceOptions,
  /** What `findDivergence` found. */
  type DivergenceReport,
} from '../waves/divergence.ts';
export {
  /** A signal glob (`*`, `?`, as `gen wave --signals` takes) as a regular expression. */
  globToRegExp,
} from '../waves/signalSelect.ts';
