import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import LZString from 'lz-string';

// The engine worker's lazy parts (src/ui/worker.ts): the default scenario's first screen loads
// neither Redis Cluster's and Sentinel's models nor the release table's words (the version
// picker's); a shared link to a fair-lock scenario opens, cold, with the verdict Node gives.

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function nodeBuiltin(id: string): { scenario: unknown; verdict: string } {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './scripts/raw-loader.mjs',
      '--input-type=module',
      '-e',
      `const { builtins } = await import('./src/engine/scenario/builtins/index.ts');
       const { runScenario } = await import('./src/engine/scenario/run.ts');
       const { validateScenario } = await import('./src/engine/scenario/schema.ts');
       const b = builtins.find((x) => x.id === ${JSON.stringify(id)});
       const v = validateScenario(b.scenario);
       process.stdout.write(JSON.stringify({ scenario: b.scenario, verdict: runScenario(v.scenario).trace.verdict }));`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out) as { scenario: unknown; verdict: string };
}

/** Every script the page (and its workers) fetched, by file name. */
function fetched(page: Page): string[] {
  const files: string[] = [];
  page.context().on('request', (r) => {
    const m = /\/assets\/([^/?#]+\.js)/.exec(r.url());
    if (m) files.push(m[1]);
  });
  return files;
}

test("the default first screen loads neither the deployments nor the release table's words", async ({
  page,
}) => {
  const files = fetched(page);
  await page.goto('./');
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 30_000 });
  expect(files.some((f) => f.startsWith('worker-'))).toBe(true);
  expect(files.filter((f) => f.startsWith('versions_text-') || f.startsWith('deployments-'))).toEqual([]);
});

test('a link to a fair-lock scenario opens cold with the verdict Node gives', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { scenario, verdict } = nodeBuiltin('fair-lock-fifo');
  await page.goto(`./#s=${LZString.compressToEncodedURIComponent(JSON.stringify(scenario))}&c=0`);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', verdict, { timeout: 30_000 });
  expect(errors).toEqual([]);
});
