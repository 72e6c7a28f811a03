import type { Page } from '@playwright/test';

/** The transport's clock, in virtual ms (its digits: a Chinese page groups them too). */
export const clock = async (page: Page): Promise<number> =>
  Number(((await page.getByTestId('clock').textContent()) ?? '').replace(/[^\d]/g, ''));

/**
 * 'in range' when the clock reads from ≤ t < to, else what it reads: for `expect.poll`, since a
 * step's cursor lands after its run (and a reveal plays on), and the clock read once may be early.
 */
export const clockIn = async (page: Page, from: number, to: number): Promise<number | 'in range'> => {
  const t = await clock(page);
  return t >= from && t < to ? 'in range' : t;
};
