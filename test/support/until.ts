import assert from 'node:assert/strict';

/** Polls `check` until it holds; fails the test with `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000, everyMs = 50): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
