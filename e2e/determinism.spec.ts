import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

// The Chromium half of the determinism rule (docs/architecture.md: the same scenario gives a
// byte-identical trace in Node and in every browser; the Node half is in src/engine/scenario).
//
// Node side: the `sim` CLI's own function (src/cli/sim_main.ts, i.e. `npm run -s sim -- <id> --json`),
// run in one Node process started the way package.json's `sim` script starts it (tsx + raw loader).
// Chromium side: the built page, the built-in picked in its scenario picker, run by the engine in
// its Web Worker, and its trace taken from the page's own "Export → Trace JSON" download.
// Each side's trace is hashed (SHA-256 of the canonical JSON) and the hashes must be equal.

interface NodeBuiltin {
  id: string;
  /** the run option the page picks for this scenario (see VERBOSE_MAX_THREADS below) */
  verbose: boolean;
}

/**
 * Mirrors src/ui/controller.ts: the page records script lines (verbose runs) only for scenarios of
 * at most 16 threads, so the Node run must use the same option for the traces to be comparable.
 * If the page ever changes that rule, this test reports a mismatch naming the option it assumed.
 */
const VERBOSE_MAX_THREADS = 16;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_ARGS = ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', '--input-type=module'];

function runNode(script: string): string {
  return execFileSync(process.execPath, [...NODE_ARGS, '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

// The built-in list comes from the engine itself (src/engine/scenario/builtins/index.ts), so a
// new built-in is covered without touching this file. Listing is cheap (no runs).
const BUILTINS: NodeBuiltin[] = JSON.parse(
  runNode(`
    const { builtins } = await import('./src/engine/scenario/builtins/index.ts');
    const threads = (s) => (s.clients ?? []).reduce((n, c) => n + (c.threads?.length ?? 0), 0);
    process.stdout.write(JSON.stringify(builtins.map((b) => ({
      id: b.id,
      verbose: threads(b.scenario) <= ${VERBOSE_MAX_THREADS},
    }))));
  `),
) as NodeBuiltin[];

/** Node traces by id: exactly what `npm run -s sim -- <id> --json [--verbose]` prints. */
let nodeTraces: Map<string, string>;

test.beforeAll(() => {
  const out = runNode(`
    const { simMain } = await import('./src/cli/sim_main.ts');
    const list = ${JSON.stringify(BUILTINS.map((b) => ({ id: b.id, verbose: b.verbose })))};
    const traces = {};
    for (const { id, verbose } of list) {
      let out = '';
      let err = '';
      const code = simMain([id, '--json', ...(verbose ? ['--verbose'] : [])], {
        out: (t) => (out += t),
        err: (t) => (err += t),
      });
      if (code !== 0) throw new Error('sim ' + id + ' exited ' + code + ': ' + err);
      traces[id] = out;
    }
    process.stdout.write(JSON.stringify(traces));
  `);
  nodeTraces = new Map(Object.entries(JSON.parse(out) as Record<string, string>));
});

/**
 * The two outputs differ by one known wrapper only: the CLI prints `JSON.stringify(trace)` plus a
 * newline, the page's export writes `JSON.stringify(trace, null, 2)`. Both are checked to be exactly
 * that, and the canonical form hashed is the compact one (key order kept, as produced: iteration
 * order is part of determinism).
 */
function canonicalFromCli(text: string): string {
  const canonical = JSON.stringify(JSON.parse(text));
  expect(text, 'the CLI prints the compact trace and a newline').toBe(`${canonical}\n`);
  return canonical;
}

function canonicalFromExport(text: string): string {
  const parsed: unknown = JSON.parse(text);
  expect(text === JSON.stringify(parsed, null, 2), 'the export is the trace indented by 2').toBe(true);
  return JSON.stringify(parsed);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Where two traces part, for the failure message: the first differing event, or the field. */
function firstDifference(nodeJson: string, chromeJson: string): string {
  type T = { events?: unknown[] } & Record<string, unknown>;
  const a = JSON.parse(nodeJson) as T;
  const b = JSON.parse(chromeJson) as T;
  const ea = a.events ?? [];
  const eb = b.events ?? [];
  for (let i = 0; i < Math.max(ea.length, eb.length); i++) {
    const x = JSON.stringify(ea[i]);
    const y = JSON.stringify(eb[i]);
    if (x !== y)
      return `events[${i}] (of ${ea.length} in Node, ${eb.length} in Chromium):\n  node:     ${x}\n  chromium: ${y}`;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return `field "${k}"`;
  }
  return 'key order or formatting only';
}

let page: Page;
const pageErrors: string[] = [];

// One page for the whole file, as a user would use it: every built-in is picked in turn in the same
// page and run by the same engine worker (the Node side, likewise, runs them all in one process).
// After a failure Playwright starts a new worker, so the remaining ids get a fresh page.
test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto('./');
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 15_000 });
  // the real incidents join the picker once the first screen is idle (controller.ts ensureIncidents)
  await expect(
    page.locator('[data-testid="scenario-picker"] option[value^="incident-"]').first(),
  ).toBeAttached();
});

test.afterAll(async () => {
  await page?.close();
});

/** Picks a built-in and waits for its run to be the page's run. */
async function pick(id: string, runTimeout: number): Promise<void> {
  const picker = page.getByTestId('scenario-picker');
  await picker.selectOption(id);
  // The picker is controlled by the store's builtinId, which loadScenario sets in the same
  // synchronous step in which runCurrent sets `running` (React puts the select back to the old
  // value until then). So once the picker shows the id this scenario's run has started, and once
  // the run-progress status is gone its result is the page's run.
  await expect(picker).toHaveValue(id);
  await expect(page.locator('.run-progress')).toHaveCount(0, { timeout: runTimeout });
  await expect(picker, 'the run did not fall back to another scenario').toHaveValue(id);
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none');
}

async function chromiumTrace(id: string, runTimeout: number): Promise<string> {
  // Already shown (the page's default, or the last id of the first pass): show another built-in
  // first, so that the trace exported is always from a run this test started.
  if ((await page.getByTestId('scenario-picker').inputValue()) === id)
    await pick(BUILTINS.find((b) => b.id !== id && b.id !== 'contention-100')!.id, 15_000);
  await pick(id, runTimeout);

  if (!(await page.locator('details.menu').evaluate((d) => (d as HTMLDetailsElement).open)))
    await page.getByText('Export', { exact: true }).click();
  const button = page.getByRole('button', { name: 'Trace JSON' });
  // Once in 320 exports of a CI run at load ~8 the click focused the button and no download came
  // (the export is synchronous on click); a second click, as a person would give, is allowed.
  const once = () => Promise.all([page.waitForEvent('download', { timeout: 10_000 }), button.click()]);
  const [download] = await once().catch(async () => {
    if (!(await page.locator('details.menu').evaluate((d) => (d as HTMLDetailsElement).open)))
      await page.getByText('Export', { exact: true }).click();
    return once();
  });
  expect(download.suggestedFilename()).toBe('lockscope-trace.json');
  const text = await readFile(await download.path(), 'utf8');
  await download.delete();
  expect(pageErrors, 'page errors').toEqual([]);
  return text;
}

test.describe('determinism: Node and Chromium produce the same trace hash', () => {
  test('the page offers the same built-ins as Node', async () => {
    const ids = await page
      .getByTestId('scenario-picker')
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ''));
    expect([...ids].sort()).toEqual(BUILTINS.map((b) => b.id).sort());
  });

  // Every built-in twice in Chromium: in the library's order, then again in reverse order, so each
  // second run follows different runs in the same worker. Each run is compared with Node.
  const passes = [
    { suffix: '', list: BUILTINS },
    { suffix: ', run again in reverse order', list: [...BUILTINS].reverse() },
  ];
  for (const { suffix, list } of passes) {
    for (const b of list) {
      // contention-100 (100 threads, a ~6 MB trace) runs in the browser in a few seconds; it is kept.
      const big = b.id === 'contention-100';
      test(`${b.id}${b.verbose ? ' (verbose)' : ''}${suffix}`, async () => {
        if (big) test.setTimeout(60_000);
        const nodeText = nodeTraces.get(b.id);
        expect(nodeText, `Node produced a trace for ${b.id}`).toBeDefined();
        const nodeJson = canonicalFromCli(nodeText!);
        const chromeJson = canonicalFromExport(await chromiumTrace(b.id, big ? 45_000 : 15_000));
        const nodeHash = sha256(nodeJson);
        const chromeHash = sha256(chromeJson);
        const why =
          nodeHash === chromeHash
            ? ''
            : `${b.id} (verbose=${b.verbose}): traces differ at ${firstDifference(nodeJson, chromeJson)}`;
        expect(chromeHash, why).toBe(nodeHash);
      });
    }
  }
});
