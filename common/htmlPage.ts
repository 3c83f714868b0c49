/**
 * The pieces of the framework's HTML pages (the report, the coverage page): escaping, tables and
 * one stylesheet, so every page reads alike.
 */

/** Text safe inside HTML elements and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A table; cells are HTML (escape text first), numeric-looking columns right-aligned by CSS class. */
export function tableHtml(headers: readonly string[], rows: readonly (readonly string[])[], className = ''): string {
  const head = `<tr>${headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n');
  return `<table${className ? ` class="${className}"` : ''}>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** Inline styles only: the page must render offline with nothing fetched. */
export const PAGE_STYLE = `
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
