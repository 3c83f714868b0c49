import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../../common/errors.ts';
import type { IrDesign } from '../ir/ir.ts';
import { emitVerilog } from './emit.ts';
import { buildManifest } from './manifest.ts';

/** Every output file of one design: `<Module>.v` per module, then `manifest.json`. */
export function verilogOutputs(design: IrDesign): Map<string, string> {
  const files = emitVerilog(design);
  files.set('manifest.json', `${JSON.stringify(buildManifest(design), null, 2)}\n`);
  return files;
}

const reason = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);

/**
 * Writes a set of files into `directory` so that a failure leaves none of them behind: all are
 * written into a staging folder beside the target first, then each is renamed into place
 * (renames within one file system are atomic and do not fail for want of space).
 */
export function writeFilesStaged(directory: string, files: ReadonlyMap<string, string>): void {
  const target = resolve(directory);
  let staging: string;
  try {
    mkdirSync(target, { recursive: true });
    staging = mkdtempSync(join(dirname(target), `.${basename(target)}.staging-`));
  } catch (error) {
    throw new UserError(`cannot write to ${directory}: ${reason(error)}`);
  }
  try {
    for (const [name, text] of files) {
      mkdirSync(dirname(join(staging, name)), { recursive: true });
      writeFileSync(join(staging, name), text);
    }
    for (const name of files.keys()) {
      mkdirSync(dirname(join(target, name)), { recursive: true });
      renameSync(join(staging, name), join(target, name));
    }
  } catch (error) {
    throw new UserError(`cannot write to ${directory}: ${reason(error)}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
