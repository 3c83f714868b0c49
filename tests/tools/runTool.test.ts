import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../common/errors.ts';
import { runTool, toolVersion } from '../../tools/runTool.ts';

describe('runTool', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('names the Debian package when a simulator is missing', async () => {
    process.env.PATH = '/nonexistent';
    await expect(runTool('verilator', ['--version'])).rejects.toThrow(
      new ToolError('verilator', 'not installed (apt-get install verilator)'),
    );
    await expect(runTool('vvp', ['-V'])).rejects.toThrow(/apt-get install iverilog/);
  });

  it('reports a failing tool with the tail of its stderr', async () => {
    const failure = runTool('sh', ['-c', 'for i in $(seq 1 50); do echo line$i >&2; done; exit 3']);
    await expect(failure).rejects.toThrow(ToolError);
    await expect(failure).rejects.toThrow(/exited with code 3\nline31\n[\s\S]*line50$/);
    await expect(failure).rejects.not.toThrow(/line30\n/);
  });

  it('kills a tool that runs past its timeout', async () => {
    await expect(runTool('sleep', ['10'], { timeout: 200 })).rejects.toThrow(/sleep: timed out after 200 ms/);
  });

  it('accepts exit codes a checker uses for answers', async () => {
    await expect(runTool('sh', ['-c', 'echo found; exit 1'], { acceptExitCodes: [1] })).resolves.toMatchObject({
      stdout: 'found\n',
      exitCode: 1,
    });
  });

  it('reads tool versions for cache keys', async () => {
    expect(await toolVersion('verilator')).toMatch(/^Verilator 5\./);
  });
});
