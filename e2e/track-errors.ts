import type { Page } from '@playwright/test';

/** The page's uncaught errors and console errors, collected for `expect(errors).toEqual([])`. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}
