import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { UserError } from '../../common/errors.ts';
import { loadProject, findTop, type Project, type RegisteredTop } from '../project/project.ts';

/** The option every command with `--top` has. */
export interface DesignArguments {
  design: string[];
}

/** Adds `--design FILE` (repeatable) to a command. */
export function withDesigns<T>(yargs: Argv<T>): Argv<T & DesignArguments> {
  return yargs.option('design', {
    type: 'string',
    array: true,
    default: [] as string[],
    describe: 'module file (.ts/.js) whose exported module definitions become tops (repeatable; besides gen.config.ts)',
  }) as Argv<T & DesignArguments>;
}

let loaded: { key: string; project: Promise<Project> } | undefined;

/** The project this command runs in: the config found from the working directory and the `--design` files. */
export function projectOf(args: DesignArguments): Promise<Project> {
  const key = JSON.stringify(args.design);
  if (loaded?.key !== key) loaded = { key, project: loadProject({ designs: args.design }) };
  return loaded.project;
}

/** The named top of the project. */
export async function topOf(args: DesignArguments, name: string): Promise<{ project: Project; top: RegisteredTop }> {
  const project = await projectOf(args);
  return { project, top: findTop(project.tops, name) };
}

/**
 * A command's output folder: what the user gave (relative to the working directory), else the
 * config's `defaults.out` (relative to the project root) or `out`, joined with the command's folder.
 */
export function outputFolder(project: Project, given: string | undefined, folder: string): string {
  if (given !== undefined) return resolve(given);
  const base = project.defaults.out;
  return base === undefined ? resolve('out', folder) : resolve(project.root, base, folder);
}

/** Refuses an option given twice where it makes no sense (yargs turns it into an array). */
export function once(args: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names) if (Array.isArray(args[name])) throw new UserError(`give --${name} once`);
}
