import { closeSync, fstatSync, mkdirSync, openSync, readSync, rmSync, statfsSync } from 'node:fs';
import { moveIntoPlace } from '../../common/atomicWrite.ts';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { FileFormatError, ToolError, UserError } from '../../common/errors.ts';
import type { IrDesign } from '../../hw/ir/ir.ts';
import { flattenDesign } from '../../hw/sim/flatten.ts';
import { tracedNets, type TracedNet } from '../../hw/sim/vcdTrace.ts';
import { traceTimescale } from '../../hw/contract/clockSchedule.ts';
import { verilogIdentifier } from '../../hw/ir/identifiers.ts';
import { VCD_ROOT } from '../../hw/verilog/manifest.ts';
import { streamVcdFile } from '../../waves/vcdReader.ts';
import { VcdWriter } from '../../waves/vcdWriter.ts';

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
  const flat = flattenDesign(design);
  let writer: VcdWriter;
  try {
    // Written straight to disk chunk by chunk: the raw trace is streamed through, never held.
    writer = await VcdWriter.open(out, { timescale: traceTimescale(flat.clocks) });
  } catch (error) {
    throw diskFullError(tool, error);
  }
  const nets: readonly TracedNet[] = options.internal
    ? [...flat.nets].map((net) => ({ scope: [flat.top.name, ...net.scope], name: net.name, width: net.width }))
    : tracedNets(flat);
  /** Per raw id code, the kept nets (their indexes in `nets` order) it carries: aliases share one code. */
  const keptOf = new Map<string, number[]>();
  const writerIds: number[] = [];
  // One time step's changes, emitted in `nets` order once the step is over (the last step is the
  // harness's own: the clock falling after the last cycle, left out).
  const stepValues: (string | undefined)[] = [];
  const touched: number[] = [];
  let stepTime = 0;
  const endStep = (): void => {
    writer.setTime(stepTime);
    touched.sort((a, b) => a - b);
    for (const index of touched) {
      writer.change(writerIds[index]!, stepValues[index]!);
      stepValues[index] = undefined;
    }
    touched.length = 0;
  };
  try {
    let end: number;
    try {
      end = streamVcdFile(
        raw,
        {
          header: (signals) => {
            const codeOf = new Map(signals.map((signal) => [signal.fullName, signal.id]));
            for (const net of nets) {
              const [, ...instances] = net.scope;
              const code = codeOf.get(
                root + [...instances.map(verilogIdentifier), verilogIdentifier(net.name)].join('.'),
              );
              if (code === undefined) continue;
              const index = writerIds.length;
              writerIds.push(writer.addSignal([...net.scope], net.name, net.width));
              keptOf.set(code, [...(keptOf.get(code) ?? []), index]);
            }
            writer.beginDump();
          },
          time: (time) => {
            if (time === stepTime) return;
            endStep();
            stepTime = time;
          },
          change: (code, value) => {
            for (const index of keptOf.get(code) ?? []) {
              if (stepValues[index] === undefined) touched.push(index);
              stepValues[index] = value;
            }
          },
        },
        { keep: (signal) => signal.fullName.startsWith(root) },
      );
    } catch (error) {
      if (error instanceof FileFormatError) throw incomplete(error.message);
      throw error;
    }
    writer.setTime(end);
    await writer.close();
  } catch (error) {
    writer.abort();
    throw diskFullError(tool, error);
  }
}

/** A write that failed for want of space, as the engine's one line; any other error as it is. */
function diskFullError(tool: string, error: unknown): unknown {
  if (error instanceof UserError && /ENOSPC|no space/i.test(error.message))
    return new ToolError(tool, 'cannot write the trace: the disk is full');
  return error;
}
