/**
 * The project's one file-naming rule, run by `make lint`: every TypeScript file is named in
 * camelCase (`bitmapDecoder.ts`, `vcdReader.ts`), a test adds `.test` (`bitmapDecoder.test.ts`),
 * and a long or special kind of test or a tool's configuration may add one more camelCase word
 * before it (`readers.soak.test.ts`, `memoryModel.bench.ts`, `vitest.config.ts`). A reader then
 * finds a module by its name alone, and `icarus.ts` / `Icarus.ts` cannot both exist.
 *
 * Usage: `npx tsx scripts/checkFileNames.ts` — checks every file git tracks or would add (ignored
 * files excluded), prints one line per misnamed file and exits 1 if there is any.
 */
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const CAMEL = '[a-z][a-zA-Z0-9]*';
const NAME = new RegExp(`^${CAMEL}(\\.(test|bench|config)|\\.${CAMEL}\\.test)?\\.ts$`);

/** Why a file's base name breaks the rule, or undefined when it keeps it. */
export function fileNameProblem(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (!base.endsWith('.ts') || NAME.test(base)) return undefined;
  return `${path}: TypeScript file names are camelCase (<name>.ts, <name>.test.ts, <name>.<kind>.test.ts, <name>.bench.ts)`;
}

/** One line per misnamed file among `paths`, in the order given. */
export function fileNameProblems(paths: readonly string[]): string[] {
  return paths.flatMap((path) => fileNameProblem(path) ?? []);
}

function projectFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    encoding: 'utf8',
  });
  return listed.split('\0').filter((path) => path !== '' && !path.startsWith('node_modules/'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = fileNameProblems(projectFiles());
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
