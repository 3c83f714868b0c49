/**
 * A batch run through files (hw/contract/harnessProtocol.ts, Transport): the commands file written
 * in few system calls, and the frames or verdicts the harness wrote read back, every length checked.
 */
import { ToolError } from '../../common/errors.ts';
import type { ExpectedOutputs, OutputMismatch, OutputVerdict } from '../../hw/contract/engine.ts';
import { digestHex, mismatchAt } from '../outputCompare.ts';
import { frameStride, PortFrames, wordsOf } from '../../hw/contract/portFrames.ts';
import type { HarnessPorts } from './harnessStimulus.ts';
import { closeSync, openSync, readFileSync, readSync, writevSync } from 'node:fs';

/** The commands and frames files of a batch run through files (hw/contract/harnessProtocol.ts, Transport). */
export interface BatchFiles {
  readonly commands: string;
  readonly frames: string;
}

/** A harness that produced fewer cycles than its streams have, as the engine's one line. */
export function stoppedEarly(tool: string, cycles: readonly number[], produced: readonly number[]): ToolError {
  return new ToolError(tool, `harness stopped early: expected ${cycles.join('+')} cycles, got ${produced.join('+')}`);
}

/** Buffers one writev takes (Linux's IOV_MAX). */
const WRITEV_PARTS = 1024;

/** Writes the pieces of a command list into one file, many pieces a call (a stream is 2–4 of them). */
export function writeParts(file: string, parts: readonly Buffer[]): void {
  const descriptor = openSync(file, 'w');
  try {
    for (let first = 0; first < parts.length; first += WRITEV_PARTS) {
      const pending = parts.slice(first, first + WRITEV_PARTS).filter((part) => part.length > 0);
      while (pending.length > 0) {
        let wrote = writevSync(descriptor, pending);
        // A short write (a full disk says so by throwing): the rest again, from where it stopped.
        while (pending.length > 0 && wrote >= pending[0]!.length) wrote -= pending.shift()!.length;
        if (wrote > 0) pending[0] = pending[0]!.subarray(wrote);
      }
    }
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Reads the verdicts of a compare from its frames file (hw/contract/harnessProtocol.ts, STEP_COMPARE): one per
 * stream, its listed mismatches with the values the expected frames and mask give; against a digest
 * the verdict is the digests' equality. A file of another shape is a ToolError.
 */
export function readVerdicts(
  tool: string,
  file: string,
  ports: HarnessPorts,
  streams: readonly { readonly inputs: PortFrames; readonly expected: ExpectedOutputs }[],
  limit: number,
): OutputVerdict[] {
  const bytes = readFileSync(file);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4));
  const widths = ports.outputs.map((port) => wordsOf(port.width));
  const malformed = (): ToolError => new ToolError(tool, 'harness wrote a malformed verdict');
  let at = 0;
  const verdicts = streams.map(({ inputs, expected }) => {
    if (at + 4 > words.length) throw stoppedEarly(tool, [inputs.cycles], [0]);
    const mismatchCount = words[at]! + words[at + 1]! * 2 ** 32;
    const digest = digestHex(words[at + 2]!);
    const listed = words[at + 3]!;
    at += 4;
    if (listed > limit || listed > mismatchCount) throw malformed();
    const mismatches: OutputMismatch[] = [];
    for (let index = 0; index < listed; index++) {
      const cycle = words[at]!;
      const port = ports.outputs[words[at + 1]!];
      if (!port || cycle >= inputs.cycles || !('frames' in expected)) throw malformed();
      const count = widths[words[at + 1]!]!;
      if (at + 2 + count > words.length) throw malformed();
      let value = 0n;
      for (let word = count - 1; word >= 0; word--) value = (value << 32n) | BigInt(words[at + 2 + word]!);
      mismatches.push(mismatchAt(value, expected, cycle, port.name));
      at += 2 + count;
    }
    const equal = 'digest' in expected ? digest === expected.digest : mismatchCount === 0;
    return { equal, cycles: inputs.cycles, digest, mismatchCount, mismatches };
  });
  if (at !== words.length || bytes.length % 4 !== 0) throw malformed();
  return verdicts;
}

/**
 * Reads a batch's frames file back as each stream's output frames (one read into one array, each
 * stream a view of it); a file of any other length than the streams' frames is a ToolError.
 */
export function readFrames(tool: string, file: string, ports: HarnessPorts, cycles: readonly number[]): PortFrames[] {
  const stride = outputWordsOf(ports);
  const total = cycles.reduce((sum, count) => sum + count, 0);
  // Every byte is read from the file (or the run fails), so the array needs no zeroing first.
  const bytes = Buffer.allocUnsafeSlow(total * stride * 4);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, total * stride);
  const descriptor = openSync(file, 'r');
  let read = 0;
  try {
    for (let got = -1; got !== 0 && read < bytes.length; read += got)
      got = readSync(descriptor, bytes, read, bytes.length - read, null);
    if (read === bytes.length && readSync(descriptor, Buffer.alloc(1), 0, 1, null) !== 0)
      throw new ToolError(tool, 'harness wrote more cycles than it was given');
  } finally {
    closeSync(descriptor);
  }
  let produced = Math.floor(read / (4 * Math.max(1, stride)));
  if (read < bytes.length)
    throw stoppedEarly(
      tool,
      cycles,
      cycles.map((count) => {
        const took = Math.min(count, produced);
        produced -= took;
        return took;
      }),
    );
  let at = 0;
  return cycles.map((count) => PortFrames.of(ports.outputs, words.subarray(at, (at += count * stride)), count));
}

/** Words of one 2-state outputs frame. */
export function outputWordsOf(ports: HarnessPorts): number {
  return frameStride(ports.outputs);
}
