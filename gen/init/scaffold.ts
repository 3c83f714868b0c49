import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../../common/errors.ts';
import { writeFilesStaged } from '../../hw/verilog/writeDesign.ts';

/** The project `gen init` writes: these files, the README's name filled in, plus package.json. */
const TEMPLATE = fileURLToPath(new URL('./template/', import.meta.url));
const PROJECT_NAME = /__PROJECT__/g;
/** npm refuses to publish (and renames) a file called .gitignore, so the template keeps it without the dot. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' };
/** Dev dependencies of a new project, at the versions the framework itself is tested with. */
const DEV_DEPENDENCIES = ['@types/node', 'typescript', 'vitest'] as const;

interface FrameworkPackage {
  readonly name: string;
  readonly version: string;
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** The framework's own package.json: the first one above this file (the checkout, or the installed package). */
function frameworkPackage(): FrameworkPackage {
  for (let folder = dirname(TEMPLATE); ; folder = dirname(folder)) {
    const file = join(folder, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as FrameworkPackage;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${TEMPLATE}`);
  }
}

function templateFiles(folder = TEMPLATE): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? templateFiles(path) : [relative(TEMPLATE, path)];
    });
}

/** A valid npm package name from a folder name (lower case, no spaces). */
export function packageName(folder: string): string {
  const name = basename(resolve(folder))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name || 'hardware-project';
}

export interface ScaffoldOptions {
  /** What package.json depends on for the framework: a version or range, or `file:<tarball>`; default the running version. */
  readonly framework?: string;
}

/**
 * Writes a new project into `folder` (created if missing, refused unless empty): package.json,
 * tsconfig, a design, its golden model, a test on every installed engine, a regression suite,
 * gen.config.ts and a README. Returns the files written, relative to `folder`.
 */
export function scaffoldProject(folder: string, options: ScaffoldOptions = {}): string[] {
  if (existsSync(folder)) {
    if (!statSync(folder).isDirectory()) throw new UserError(`${folder} exists and is not a folder`);
    if (readdirSync(folder).length > 0)
      throw new UserError(`${folder} is not empty; gen init writes only into a new or empty folder`);
  }
  const framework = frameworkPackage();
  const name = packageName(folder);
  const files = new Map<string, string>();
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: { test: 'vitest run', typecheck: 'tsc' },
    dependencies: { [framework.name]: options.framework ?? framework.version },
    devDependencies: Object.fromEntries(
      DEV_DEPENDENCIES.map((dependency) => [dependency, framework.devDependencies[dependency] ?? 'latest']),
    ),
  };
  files.set('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
  for (const file of templateFiles()) {
    const text = readFileSync(join(TEMPLATE, file), 'utf8').replace(PROJECT_NAME, name);
    files.set(RENAMED[file] ?? file, text);
  }
  writeFilesStaged(folder, files);
  return [...files.keys()].sort();
}
