import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, driven headless with no network side traffic, from a fresh profile. */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** One headless Chromium for a test file; each page opens in a fresh context of it (no state shared between pages). */
export interface ChromiumSession {
  /** Opens `url` in a new context, hands the page and its console errors to `use`, then closes the context. */
  withPage<T>(url: string, use: (page: Page, consoleErrors: readonly string[]) => Promise<T>): Promise<T>;
  /** Ends the browser (the file's afterAll); nothing if no page was opened. */
  close(): Promise<void>;
}

/**
 * A Chromium session started at its first page: a launch costs seconds of CPU, so a file opens its
 * pages in one browser rather than a browser each.
 */
export function chromiumSession(): ChromiumSession {
  let browser: Promise<Browser> | undefined;
  return {
    async withPage(url, use) {
      browser ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
      const context = await (await browser).newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('request', (request) => {
          if (!request.url().startsWith('file:')) errors.push(`network request: ${request.url()}`);
        });
        await page.goto(url, { waitUntil: 'load' });
        return await use(page, errors);
      } finally {
        await context.close();
      }
    },
    async close() {
      if (browser) await (await browser).close();
    },
  };
}

/**
 * Every text of every `figure[data-figure]` on the page that its SVG clips or that overlaps another
 * text of the figure by more than a pixel, as readable lines (empty = none). Boxes are the texts'
 * getBBox() corners mapped to the page by getScreenCTM(), so rotated labels are tested as rotated
 * rectangles (separating-axis test), not as their much larger upright bounding boxes.
 */
export async function figureTextProblems(page: Page): Promise<string[]> {
  return page.$$eval('figure[data-figure]', (figures) => {
        type Point = { x: number; y: number };
        /** The four corners of a text's box on the page, rotation included. */
        const corners = (text: SVGTextElement): Point[] => {
          const box = text.getBBox();
          const matrix = text.getScreenCTM()!;
          return [
            [box.x, box.y],
            [box.x + box.width, box.y],
            [box.x + box.width, box.y + box.height],
            [box.x, box.y + box.height],
          ].map(([x, y]) => new DOMPoint(x, y).matrixTransform(matrix));
        };
        /** Whether two convex quadrilaterals overlap by more than `slack` px (separating axis test). */
        const overlap = (a: Point[], b: Point[], slack = 1): boolean => {
          for (const quad of [a, b]) {
            for (let i = 0; i < 4; i++) {
              const [p, q] = [quad[i]!, quad[(i + 1) % 4]!];
              const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
              const axis = { x: -(q.y - p.y) / length, y: (q.x - p.x) / length };
              const project = (points: Point[]) => points.map((r) => r.x * axis.x + r.y * axis.y);
              const [pa, pb] = [project(a), project(b)];
              if (Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb)) <= slack) return false;
            }
          }
          return true;
        };
        const found: string[] = [];
        for (const figure of figures) {
          const name = figure.getAttribute('data-figure');
          const texts = [...figure.querySelectorAll('svg text')].filter((t): t is SVGTextElement => (t.textContent ?? '').trim() !== '');
          const boxes = texts.map((text) => ({ text: text.textContent!.trim(), quad: corners(text), svg: text.ownerSVGElement!.getBoundingClientRect() }));
          for (const { text, quad, svg } of boxes) {
            const xs = quad.map((p) => p.x);
            const ys = quad.map((p) => p.y);
            if (Math.min(...xs) < svg.left - 0.5 || Math.max(...xs) > svg.right + 0.5 || Math.min(...ys) < svg.top - 0.5 || Math.max(...ys) > svg.bottom + 0.5)
              found.push(`${name}: "${text}" is clipped by its SVG`);
          }
          for (let i = 0; i < boxes.length; i++)
            for (let j = i + 1; j < boxes.length; j++)
              if (overlap(boxes[i]!.quad, boxes[j]!.quad)) found.push(`${name}: "${boxes[i]!.text}" overlaps "${boxes[j]!.text}"`);
          if (texts.length === 0) found.push(`${name}: no text at all`);
        }
        return found;
      });
}
