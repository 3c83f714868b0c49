import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

/** Debian's Chromium, driven headless with no network side traffic, from a fresh profile. */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Opens `url` in headless Chromium, hands the page and its console errors to `use`, then closes everything. */
export async function withPage<T>(url: string, use: (page: Page, consoleErrors: readonly string[]) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'report-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 900 } });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
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
    rmSync(profile, { recursive: true, force: true });
  }
}
