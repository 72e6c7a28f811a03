import type { Page } from '@playwright/test';

/** Collects the page's uncaught errors and console errors: a spec ends by expecting none. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}
