import { escapeHtml, PAGE_STYLE } from '../../api/plugin.ts';

/** What the page shows of one section. */
export interface PageSection {
  readonly id: string;
  readonly title: string;
  readonly reproduce: readonly string[];
  /** Body HTML, or why the section is not there. */
  readonly body: { readonly html: string } | { readonly note: string };
}

export interface PageHeader {
  readonly command: string;
  readonly quick: boolean;
  readonly generatedAt: string;
}


function sectionHtml(section: PageSection): string {
  const body = 'html' in section.body ? section.body.html : `<p class="note">${escapeHtml(section.body.note)}</p>`;
  const status = 'html' in section.body ? 'ok' : 'skipped';
  return [
    `<section id="${escapeHtml(section.id)}" data-status="${status}">`,
    `<h2>${escapeHtml(section.title)}</h2>`,
    `<p>Reproduce:</p><pre class="reproduce">${section.reproduce.map(escapeHtml).join('\n')}</pre>`,
    body,
    '</section>',
  ].join('\n');
}

/** The whole self-contained report page: what it found (`findings`, HTML) first, then the sections. */
export function reportPage(header: PageHeader, sections: readonly PageSection[], findings = ''): string {
  const toc = sections.map((section) => `<li><a href="#${escapeHtml(section.id)}">${escapeHtml(section.title)}</a>${'note' in section.body ? ' (not available)' : ''}</li>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Coruscant sparse tensor core: report</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>Coruscant sparse tensor core: report</h1>
<p class="meta">Made by <code>${escapeHtml(header.command)}</code>${header.quick ? ' (<code>--quick</code>: reduced sizes)' : ''} on ${escapeHtml(header.generatedAt)}.
Every number on this page is also in <a href="summary.json">summary.json</a>; each section names the command that reproduces it on its own.</p>
${findings}
<nav><p class="meta">Sections:</p><ol>
${toc}
</ol></nav>
</header>
<main>
${sections.map(sectionHtml).join('\n')}
</main>
</body>
</html>
`;
}
