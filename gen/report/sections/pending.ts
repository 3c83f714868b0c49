import type { ReportSection, SkippedSection } from '../types.ts';

/** A section whose part of the project is not built yet: the page says so instead of failing. */
export function pendingSection(id: string, title: string, note: string, reproduce: readonly string[]): ReportSection {
  return { id, title, reproduce: () => reproduce, run: async (): Promise<SkippedSection> => ({ skipped: note }) };
}
