import { afterEach, describe, expect, it } from 'vitest';
import { envMilliseconds, formatSeconds, withDeadline } from '../../common/deadline.ts';

const NAME = 'GEN_TEST_DEADLINE_MS';
afterEach(() => {
  delete process.env[NAME];
});

describe('deadlines', () => {
  it('reads a bound from the environment: unset or empty is none, anything but a whole number above 0 is refused', () => {
    expect(envMilliseconds(NAME)).toBeUndefined();
    process.env[NAME] = '';
    expect(envMilliseconds(NAME)).toBeUndefined();
    process.env[NAME] = '2500';
    expect(envMilliseconds(NAME)).toBe(2500);
    for (const bad of ['0', '-5', '1.5', 'soon', '9'.repeat(30)]) {
      process.env[NAME] = bad;
      expect(() => envMilliseconds(NAME)).toThrow(
        /GEN_TEST_DEADLINE_MS must be a whole number of milliseconds above 0/,
      );
    }
  });

  it('shows bounds in seconds', () => {
    expect([formatSeconds(3000), formatSeconds(1500), formatSeconds(120_000), formatSeconds(1)]).toEqual([
      '3 s',
      '1.5 s',
      '120 s',
      '0.001 s',
    ]);
  });

  it('hands back what the work returns or throws, and lets the process go on after it', async () => {
    await expect(withDeadline(60_000, 'never shown', () => 42)).resolves.toBe(42);
    await expect(
      withDeadline(60_000, 'never shown', async () => {
        throw new Error('its own failure');
      }),
    ).rejects.toThrow('its own failure');
  });
});
