import { escapeHtml } from './html.ts';

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

/** Inline styles only: the page must render offline with nothing fetched. */
const STYLE = `
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 0 auto; max-width: 1180px; padding: 1.5rem 2rem 4rem; color: #1b1f24; line-height: 1.45; }
h1 { font-size: 1.7rem; margin-bottom: .2rem; } h2 { font-size: 1.3rem; margin-top: 2.4rem; border-bottom: 2px solid #d0d7de; padding-bottom: .2rem; }
nav ol { columns: 2; padding-left: 1.2rem; margin-top: 0; } #findings { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: .2rem 1.2rem .4rem; margin: 1rem 0; }
#findings h2 { margin-top: .6rem; border: none; } #findings li { margin: .35rem 0; } code, pre { font-family: "DejaVu Sans Mono", ui-monospace, monospace; font-size: .86em; }
pre.reproduce { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem .8rem; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .88rem; } th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; } table.numeric td:not(:first-child) { text-align: right; font-variant-numeric: tabular-nums; }
small.ports { color: #57606a; } figure { margin: 1rem 0; overflow-x: auto; } figcaption { color: #57606a; font-size: .88rem; }
figure svg { max-width: 100%; height: auto; } figure[data-figure$="wave"] svg { max-width: none; }
.pass { color: #1a7f37; font-weight: 600; } .fail { color: #cf222e; font-weight: 700; }
.note { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: .5rem .8rem; }
.meta { color: #57606a; }
`;

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
<style>${STYLE}</style>
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
