import { describe, expect, it } from 'vitest';
import { REPORT_SECTIONS } from '../../../coruscant/report/sections/index.ts';
import { CORUSCANT_SUITES } from '../../../coruscant/suites/index.ts';

/** The report's reproduce commands are what a user types in the project: `npx gen …` (comment lines, `# …`, aside). */
describe('report reproduce commands', () => {
  it.each([false, true])('are npx gen commands in every section (quick: %s)', (quick) => {
    for (const section of REPORT_SECTIONS) {
      const commands = section.reproduce({ quick, scratch: '/tmp/scratch', out: 'report', suites: CORUSCANT_SUITES });
      const runnable = commands.filter((command) => !command.startsWith('#'));
      expect(runnable.length, section.id).toBeGreaterThan(0);
      for (const command of runnable) expect(command, section.id).toMatch(/^npx gen [a-z]/);
    }
  });
});
