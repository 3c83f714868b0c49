import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { createStagingFolder, folderTarget, swapFolderIn } from '../../common/folderSwap.ts';
import { writeError } from '../../common/fileErrors.ts';
import { UserError } from '../../common/errors.ts';
import type { IrDesign } from '../ir/ir.ts';
import { emitVerilog } from './emit.ts';
import { buildManifest } from './manifest.ts';
import { pathInside } from '../../common/pathInside.ts';

/** Every output file of one design: `<Module>.v` per module, then `manifest.json`. */
export function verilogOutputs(design: IrDesign): Map<string, string> {
  const files = emitVerilog(design);
  files.set('manifest.json', `${JSON.stringify(buildManifest(design), null, 2)}\n`);
  return files;
}

/** What `gen verilog` writes: module files and manifests, at the top or in one folder per top (`--all`). */
const isGeneratedFile = (name: string): boolean => name.endsWith('.v') || name === 'manifest.json';

/** A top-level entry of the output folder that gen verilog may replace: its own files, or an `--all` top folder of them. */
function isGeneratedEntry(folder: string, name: string, newNames: ReadonlySet<string>): boolean {
  if (newNames.has(name) || isGeneratedFile(name)) return true;
  try {
    if (!statSync(join(folder, name)).isDirectory()) return false;
    return readdirSync(join(folder, name)).every(isGeneratedFile);
  } catch {
    return false;
  }
}

/**
 * Writes a set of files as `directory`'s whole content, switching from the old set to the new one
 * in one step: all are written into a staging folder beside the target, which is then swapped in
 * (common/folderSwap.ts), so a failure, SIGINT or SIGKILL leaves the complete old set or the
 * complete new one. Because the folder is replaced whole, it must hold nothing but generated
 * files: one holding anything else (notes, other tools' output, the current folder) is refused.
 */
export function writeFilesStaged(directory: string, files: ReadonlyMap<string, string>): void {
  const target = folderTarget(directory);
  const here = relative(target, process.cwd());
  if (here === '' || (!here.startsWith('..') && !here.startsWith(sep)))
    throw new UserError(`${directory} contains the current folder; name a folder of its own`);
  const newNames = new Set([...files.keys()].map((name) => name.split('/')[0]!));
  let existing: string[] = [];
  try {
    existing = readdirSync(target);
  } catch {
    // No folder yet: nothing to keep.
  }
  const foreign = existing.filter((name) => !isGeneratedEntry(target, name, newNames));
  if (foreign.length > 0)
    throw new UserError(
      `${directory} holds ${foreign.length === 1 ? 'a file' : 'files'} not written by a Verilog export (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}); the folder is replaced whole, so name an empty one or one written by an export`,
    );
  const staging = createStagingFolder(target, directory);
  try {
    for (const [name, text] of files) {
      const path = pathInside(staging, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw writeError(directory, error);
  }
  try {
    swapFolderIn(staging, target, directory);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
