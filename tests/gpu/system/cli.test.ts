/** Misuse of gen memsim --kernel/--sweep and gen spmm --model ends in one-line UserErrors, before any work. */
import { describe, expect, it, vi } from 'vitest';
import { FieldError, UserError } from '../../../common/errors.ts';
import { cliMessage } from '../../../gen/cli/optionFlags.ts';
import {
  runMemsimKernel,
  runMemsimSweep,
  runSpmmModel,
  type SystemModelArgs,
} from '../../../coruscant/commands/gpuModelOptions.ts';
import { autoSplitK, gridPlan } from '../../../gpu/system/kernels.ts';

const args = (options: Partial<SystemModelArgs>): SystemModelArgs => ({
  profile: 'rtx6000ada',
  shape: '512x512',
  n: 8,
  sparsity: 0.5,
  seed: 1,
  shapes: '512x512',
  sparsities: '0.5',
  'n-values': '',
  'sector-budget': 1000,
  out: '',
  json: false,
  ...options,
});

describe('system model CLI', () => {
  it("prints the share of A the L2 keeps between the timed launches' turns, and --rotating-copies 0 reads it cold", async () => {
    const printed = async (options: Partial<SystemModelArgs>): Promise<string> => {
      const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      try {
        await runMemsimKernel(args({ profile: 'h200', kernel: 'stc', shape: '512x7168', 'split-k': 8, ...options }));
        return write.mock.calls.map(([text]) => String(text)).join('');
      } finally {
        write.mockRestore();
      }
    };
    const time = (text: string): number => Number(/^time +([\d.]+) µs/m.exec(text)![1]);
    const rotated = await printed({});
    const cold = await printed({ 'rotating-copies': 0 });
    // The harness's four copies of a 512 × 7168 STC layout (≈ 18 MiB) stay in the H200's L2.
    expect(rotated).toMatch(/the L2 keeps 100 % of A between its copy's turns/);
    expect(cold).not.toMatch(/the L2 keeps/);
    expect(time(cold)).toBeGreaterThan(1.15 * time(rotated));
  }, 60_000);

  it.each([
    ['a shape that is not M×K', () => runMemsimKernel(args({ kernel: 'stc', shape: '512' })), /--shape 512/],
    ['M not a multiple of 256', () => runMemsimKernel(args({ kernel: 'stc', shape: '300x512' })), /M = 300/],
    ['an unknown kernel', () => runSpmmModel(args({ kernel: 'cusparse' })), /--kernel cusparse/],
    ['a sparsity of 1', () => runSpmmModel(args({ sparsity: 1 })), /sparsity must be in \[0, 1\)/],
    ['an unknown profile', () => runSpmmModel(args({ profile: 'a100' })), /unknown GPU profile 'a100'/],
    ['a bad sparsity list', () => runMemsimSweep(args({ sweep: true, sparsities: '0.3,x' })), /--sparsities/],
    ['a bad split-K', () => runMemsimKernel(args({ kernel: 'dense', 'split-k': 99 })), /--split-k 99/],
    [
      'a fractional rotation',
      () => runMemsimKernel(args({ kernel: 'stc', 'rotating-copies': 2.5 })),
      /--rotating-copies 2.5/,
    ],
  ])('%s', async (_, run, message) => {
    const error = await Promise.resolve()
      .then(run)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(cliMessage(error as Error)).toMatch(message);
  });

  it('a bad split-K is a FieldError naming the library field (the CLI maps it to --split-k)', () => {
    const error = (() => {
      try {
        gridPlan({ m: 512, k: 512, n: 8 }, 99);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FieldError);
    expect((error as FieldError).field).toBe('splitK');
    expect((error as Error).message).toBe('splitK 99: give 1 … 8 (the K tiles of 512)');
  });

  it('split-K: auto picks the fewest, fullest waves; a split covers all K tiles', () => {
    expect(autoSplitK({ m: 9216, k: 9216, n: 8 }, 142)).toBe(15);
    const plan = gridPlan({ m: 9216, k: 9216, n: 8 }, 15);
    expect(plan.itersPerSplit * plan.splitK).toBeGreaterThanOrEqual(plan.kTiles);
    expect(plan.blocks).toBe(36 * plan.splitK);
  });
});
