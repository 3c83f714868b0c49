import { closeSync, fstatSync, mkdirSync, openSync, readSync, rmSync, statfsSync } from 'node:fs';
import { moveIntoPlace } from '../common/atomicWrite.ts';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { FileFormatError, ToolError, UserError } from '../common/errors.ts';
import type { IrDesign } from '../hw/ir/ir.ts';
import { flattenDesign } from '../hw/sim/flatten.ts';
import { tracedNets, type TracedNet } from '../hw/sim/vcdTrace.ts';
import { traceTimescale } from '../hw/sim/clockSchedule.ts';
import { verilogIdentifier } from '../hw/ir/identifiers.ts';
import { VCD_ROOT } from '../hw/verilog/manifest.ts';
import { readVcdFile, type VcdTrace } from '../waves/vcdReader.ts';
import { VcdWriter } from '../waves/vcdWriter.ts';

/** What to trace: the file (none: no trace), and whether the emitter's internal nets are kept. */
export interface TraceRequest {
  readonly vcd?: string | undefined;
  /** Keep the internal nets the Verilog has (`_n27`); RunOptions.internal. */
  readonly internal?: boolean | undefined;
}

/** What to trace, and where the run's last time step will be once it has ended (0: not checked). */
export interface EngineTraceRequest extends TraceRequest {
  /** Called after the run: the time its trace must reach (a design whose clock toggles every cycle), 0 for none. */
  readonly endTime: () => number;
}

/**
 * Runs a Verilog simulator (a batch run or a whole session) with its trace going to a raw file
 * beside `vcd`, then rewrites that into the engine-independent waveform (see rewriteEngineTrace)
 * under a temporary name, checks it is whole (a full disk may leave a simulator exiting 0 with a
 * cut trace), and renames it into place only then; without `vcd`, just runs. The raw file and
 * the temporary are removed whatever happens.
 */
export async function withEngineTrace<Run>(
  tool: string,
  design: IrDesign,
  trace: EngineTraceRequest,
  run: (raw: string | undefined) => Promise<Run>,
): Promise<Run> {
  const { vcd, internal } = trace;
  if (vcd === undefined) return run(undefined);
  try {
    mkdirSync(dirname(vcd), { recursive: true });
  } catch (error) {
    throw new UserError(`cannot write ${vcd}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  // Named as common/atomicWrite.ts names temporaries, so a killed run's files are swept too.
  const stamp = `${process.pid}.${randomBytes(4).toString('hex')}`;
  // The raw trace's name in printable ASCII: vvp's $dumpfile refuses any other byte (and writes
  // dump.vcd in its working folder instead).
  const raw = join(dirname(vcd), `.${basename(vcd).replace(/[^\x20-\x7e]/g, '_')}.raw.${stamp}.tmp`);
  const temporary = join(dirname(vcd), `.${basename(vcd)}.${stamp}.tmp`);
  try {
    // A full disk is judged before the raw trace is removed (which frees the space again).
    const result = await run(raw).catch((error: unknown) => {
      throw diskFull(dirname(vcd)) ? new ToolError(tool, `cannot write the trace ${vcd}: the disk is full`) : error;
    });
    await rewriteEngineTrace(tool, design, raw, temporary, { internal: internal === true });
    checkTraceComplete(tool, temporary, vcd, trace.endTime());
    // As writeFileAtomic: a symlink's target is replaced, a FIFO or device written through.
    moveIntoPlace(temporary, vcd);
    return result;
  } finally {
    rmSync(raw, { force: true });
    rmSync(temporary, { force: true });
  }
}

function diskFull(dir: string): boolean {
  try {
    return statfsSync(dir).bavail === 0;
  } catch {
    return false;
  }
}

/** Bytes read from the end of a trace to check it. */
const TRACE_TAIL_BYTES = 64 * 1024;

/**
 * Checks a VCD is whole: it has its header, ends with a complete line, and (when `endTime` > 0:
 * a design whose clock toggles every cycle) reaches the run's last time step.
 */
function checkTraceComplete(tool: string, path: string, shownAs: string, endTime: number): void {
  let text: string;
  let size: number;
  try {
    const fd = openSync(path, 'r');
    try {
      size = fstatSync(fd).size;
      const length = Math.min(size, TRACE_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new ToolError(tool, `wrote no trace ${shownAs} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const incomplete = (why: string): ToolError =>
    new ToolError(tool, `the trace ${shownAs} is incomplete (${why}); was the disk full?`);
  if (size === 0) throw incomplete('it is empty');
  if (!text.endsWith('\n')) throw incomplete('its last line is cut off');
  const stamps = [...text.matchAll(/^#(\d+)\s*$/gm)];
  const last = stamps.length > 0 ? Number(stamps[stamps.length - 1]![1]) : undefined;
  if (size <= TRACE_TAIL_BYTES && !text.includes('$enddefinitions')) throw incomplete('its header is cut off');
  if (endTime > 0 && (last === undefined || last < endTime))
    throw incomplete(`it ends at time ${last ?? 'none'}, the run at ${endTime}`);
}

/**
 * Rewrites the VCD a Verilog simulator wrote (`raw`, under the harness's `TOP`, in its own
 * timescale, with the harness's registers, port duplicates, memory words and the emitter's
 * internal nodes) into the engine-independent waveform at `out`: the signals of
 * hw/sim/vcdTrace.ts's `tracedNets`, in that order and under those scopes, with the raw trace's
 * time stamps (both harnesses count 10 per cycle, as the in-process simulator does) in 1 ns.
 * What the harness does at the trace's last time stamp (the clock falling after the last cycle)
 * is left out, so every engine's trace ends the same way.
 * With `internal`, the internal nets the Verilog emitter kept as wires (`_n27`; the ones it inlined
 * have no signal) follow the named nets of their scope, in the flattened design's order.
 */
export async function rewriteEngineTrace(
  tool: string,
  design: IrDesign,
  raw: string,
  out: string,
  options: { readonly internal?: boolean } = {},
): Promise<void> {
  const incomplete = (why: string): ToolError =>
    new ToolError(tool, `the simulator's trace is incomplete (${why}); was the disk full?`);
  const root = `${VCD_ROOT}.${design.top}.`;
  let trace: VcdTrace;
  try {
    trace = readVcdFile(raw, { keep: (signal) => signal.fullName.startsWith(root) });
  } catch (error) {
    if (error instanceof FileFormatError) throw incomplete(error.message);
    throw error;
  }
  const byName = new Map(trace.signals.map((signal) => [signal.fullName, signal]));
  const flat = flattenDesign(design);
  const writer = new VcdWriter(out, { timescale: traceTimescale(flat.clocks) });
  try {
    const nets: readonly TracedNet[] = options.internal
      ? [...flat.nets].map((net) => ({ scope: [flat.top.name, ...net.scope], name: net.name, width: net.width }))
      : tracedNets(flat);
    const kept = nets.flatMap((net) => {
      const [, ...instances] = net.scope;
      const name = root + [...instances.map(verilogIdentifier), verilogIdentifier(net.name)].join('.');
      const changes = byName.has(name) ? trace.changes.get(byName.get(name)!.id) : undefined;
      return changes ? [{ id: writer.addSignal([...net.scope], net.name, net.width), changes }] : [];
    });
    writer.beginDump();
    const end = trace.endTime;
    const cursors = kept.map(() => 0);
    for (;;) {
      let time = Infinity;
      kept.forEach(({ changes }, index) => {
        const next = changes.times[cursors[index]!];
        if (next !== undefined && next < time) time = next;
      });
      if (time >= end) break;
      writer.setTime(time);
      kept.forEach(({ id, changes }, index) => {
        if (changes.times[cursors[index]!] !== time) return;
        writer.change(id, changes.values[cursors[index]!]!);
        cursors[index] = cursors[index]! + 1;
      });
      if (writer.needsDrain) await writer.drain();
    }
    writer.setTime(end);
    await writer.close();
  } catch (error) {
    writer.abort();
    if (error instanceof UserError && /ENOSPC|no space/i.test(error.message))
      throw new ToolError(tool, 'cannot write the trace: the disk is full');
    throw error;
  }
}
