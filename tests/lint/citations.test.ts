/**
 * Citations lead somewhere in the repository: every `docs/spec.md §N` names a section that
 * docs/spec.md has, every `facts.md §N`, `memory.md §N`, `h200-silicon.md §N` one that docs/reference has,
 * nothing cites a document outside the repository, relative links in the Markdown resolve and
 * the repository paths it quotes exist.
 * docs/architecture.md's layer table is the LAYERS table `make lint` enforces.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../gen/cli/commands/index.ts';
import { coruscant } from '../../coruscant/plugin.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Tracked and new (not ignored) files of the work tree matching a git pathspec. */
function projectFiles(...pathspecs: string[]): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...pathspecs],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return listed
    .split('\0')
    .filter((path) => path !== '' && existsSync(join(ROOT, path)) && !path.startsWith('node_modules/'));
}

const SOURCES = projectFiles('*.ts', '*.js', '*.cjs', '*.mjs', '*.md', 'Makefile').filter(
  (path) => !path.startsWith('docs/reference/') && path !== 'tests/lint/citations.test.ts',
);

/** Section numbers (`2`, `3.1`, `0`, `1a`) of a Markdown file's `## N.` / `### N.M` / `### 1a.` headings. */
function sectionsOf(path: string): Set<string> {
  const sections = new Set<string>();
  for (const match of readFileSync(join(ROOT, path), 'utf8').matchAll(/^#{2,4} ([0-9]+(?:\.[0-9]+)*[a-z]?)[. ]/gm))
    sections.add(match[1]!);
  return sections;
}

/** Every `<pattern> §N` citation in the sources: where it is and the section it names. */
function citations(pattern: RegExp): { where: string; section: string }[] {
  const found: { where: string; section: string }[] = [];
  for (const path of SOURCES) {
    const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
    lines.forEach((line, index) => {
      for (const match of line.matchAll(pattern))
        found.push({ where: `${path}:${index + 1}`, section: match[1]!.replace(/\.$/, '') });
    });
  }
  return found;
}

describe('citations', () => {
  it('name sections docs/spec.md has', () => {
    const sections = sectionsOf('docs/spec.md');
    const cited = citations(/spec\.md §([0-9]+(?:\.[0-9]+)*)/g);
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter(({ section }) => !sections.has(section))).toEqual([]);
  });

  it('name sections docs/reference/facts.md, memory.md and h200-silicon.md have', () => {
    const facts = sectionsOf('docs/reference/facts.md');
    const memory = sectionsOf('docs/reference/memory.md');
    const factCitations = citations(/facts\.md (?:§|section )([0-9]+[a-z]?)/g);
    const memoryCitations = citations(/(?<!-)memory\.md §([0-9]+[a-z]?)/g);
    const silicon = sectionsOf('docs/reference/h200-silicon.md');
    const siliconCitations = citations(/h200-silicon\.md §([0-9]+)/g);
    expect(factCitations.length + memoryCitations.length).toBeGreaterThan(20);
    expect(factCitations.filter(({ section }) => !facts.has(section))).toEqual([]);
    expect(memoryCitations.filter(({ section }) => !memory.has(section))).toEqual([]);
    expect(siliconCitations.filter(({ section }) => !silicon.has(section))).toEqual([]);
  });

  it('never point outside the repository', () => {
    const outside = /\.\.\/shared|shared\/(reference|seeds)|SPEC\.md|SPEC §|reference\/toolchain\.md/;
    const offenders = SOURCES.flatMap((path) =>
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => (outside.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('name the reference documents by their path in code (docs/reference/…)', () => {
    const bare = /(?<!docs\/)reference\/[a-z0-9-]+\.(md|json)/;
    const offenders = SOURCES.filter((path) => !path.endsWith('.md')).flatMap((path) =>
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => (bare.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('use relative Markdown links that resolve', () => {
    const dead: string[] = [];
    for (const path of projectFiles('*.md')) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      for (const match of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(ROOT, dirname(path), target))) dead.push(`${path}: ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });
});

describe('Markdown', () => {
  it('names only files and folders that exist (or that gen init writes into a new project)', () => {
    const tops = 'common|tools|waves|golden|hw|engines|verif|synth|gpu|gen|api|bench|tests|docs|scripts|bin';
    const path = new RegExp(`(?<![\\w./-])((?:${tops})/[A-Za-z0-9_./-]*)`, 'g');
    const missing: string[] = [];
    for (const file of projectFiles('*.md').filter((name) => !name.startsWith('gen/init/template/'))) {
      for (const [, quoted] of readFileSync(join(ROOT, file), 'utf8').matchAll(/`([^`\n]+)`/g)) {
        for (const [, found] of quoted!.matchAll(path)) {
          const named = found!.replace(/[.,;:]+$/, '');
          if (/[<*…]/.test(named)) continue; // a pattern or a placeholder, not a path
          if (existsSync(join(ROOT, named)) || existsSync(join(ROOT, 'gen/init/template', named))) continue;
          missing.push(`${file}: ${named}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('docs/spec.md §9', () => {
  it('lists every gen command, the framework ones and the showcase plugin ones, and no other', () => {
    // The framework's commands and the showcase plugin's, each listed once in §9.
    const commands = [...COMMANDS, ...(coruscant.commands ?? [])].map((entry) => entry.name);
    const spec = readFileSync(join(ROOT, 'docs/spec.md'), 'utf8');
    const section = spec.slice(spec.indexOf('## 9. CLI'));
    const listed = [...section.matchAll(/^\| `gen ([a-z-]+)` \|/gm)].map(([, name]) => name!);
    expect(commands.length).toBeGreaterThan(10);
    expect(listed.sort()).toEqual(commands.sort());
  });
});

describe('docs/architecture.md', () => {
  it('lists exactly the layers of .dependency-cruiser.cjs, each with what it may import', () => {
    const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {
      forbidden: { name: string; comment?: string }[];
    };
    const enforced = Object.fromEntries(
      config.forbidden
        .filter((rule) => rule.name.startsWith('layer-'))
        .map((rule) => {
          const [layer, allowed] = rule.comment!.split(' may import only: ');
          return [layer!, allowed === 'nothing of the project' ? [] : allowed!.split(', ')];
        }),
    );
    const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const documented = Object.fromEntries(
      [...text.matchAll(/^\| `([a-z/.A-Z]+)` \| [^|]+ \| ([^|]+) \|$/gm)].map(([, layer, allowed]) => [
        layer!,
        allowed!.trim() === '–' ? [] : allowed!.split(',').map((name) => name.trim()),
      ]),
    );
    expect(documented).toEqual(enforced);
  });
});
