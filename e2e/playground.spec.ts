import { expect, test, type Page } from '@playwright/test';
import LZString from 'lz-string';
import { countStateRequests, frameAtCursor } from './frame-at-cursor';

const { compressToEncodedURIComponent } = LZString;

function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 15_000 });
}

async function clock(page: Page): Promise<number> {
  return Number(await page.getByTestId('clock').textContent());
}

async function pick(page: Page, id: string) {
  await page.getByTestId('scenario-picker').selectOption(id);
  await expect(page.getByTestId('scenario-picker')).toHaveValue(id);
  await ready(page);
}

test('pick a scenario, play, step forward and back', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.keyboard.press('Home');
  await expect(page.getByTestId('clock')).toHaveText('0');
  const event = page.locator('.transport__event');
  await expect(event).toContainText(/ 0\//);
  for (let i = 0; i < 4; i++) await page.getByTestId('step-forward').click();
  await expect(event).toContainText(/ 4\//);
  const after = await clock(page);
  await page.getByTestId('step-back').click();
  await expect(event).toContainText(/ 3\//);
  expect(await clock(page)).toBeLessThanOrEqual(after);
  await page.getByTestId('step-forward').click();
  await expect(event).toContainText(/ 4\//);
  expect(await clock(page)).toBe(after);
  await page.getByRole('combobox', { name: 'Speed (virtual time)' }).selectOption('1000');
  await page.getByTestId('play').click();
  await expect.poll(() => clock(page), { timeout: 10_000 }).toBeGreaterThan(after);
  await expect(page.getByTestId('keyspace')).toBeVisible();
  await expect(page.getByTestId('script-view')).toBeVisible();
  expect(errors).toEqual([]);
});

test('an unsafe scenario shows a labelled violation band', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'gc-pause-lease-expiry');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'unsafe');
  const bands = page.getByTestId('violation');
  await expect(bands.first()).toBeVisible();
  await expect(bands.first()).toContainText(/V[123]/);
  expect(await bands.first().getAttribute('title')).toMatch(/believe|resource|lease/);
});

test('a shared link reopens the same moment in a new page', async ({ page, context }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'lease-expiry-no-watchdog');
  for (let i = 0; i < 7; i++) await page.getByTestId('step-forward').click();
  await expect(page.locator('.transport__event')).toContainText(/ 7\//);
  const t = await page.getByTestId('clock').textContent();
  const verdict = await page.getByTestId('verdict').getAttribute('data-verdict');
  // The link follows the cursor after a short debounce: wait for this cursor.
  const n = Number(/(\d+)\//.exec((await page.locator('.transport__event').textContent())!)![1]);
  await expect(page.getByTestId('share-link')).toHaveAttribute('href', new RegExp(`#s=.+&c=${n - 1}$`));
  const href = await page.getByTestId('share-link').getAttribute('href');
  const other = await context.newPage();
  await other.goto(href!);
  await ready(other);
  await expect(other.getByTestId('clock')).toHaveText(t!);
  await expect(other.getByTestId('verdict')).toHaveAttribute('data-verdict', verdict!);
});

test('hand-written #json= links work', async ({ page }) => {
  const scenario = {
    format: 'lockscope/1',
    clients: [
      {
        id: 'A',
        threads: [
          {
            id: 1,
            program: [
              { op: 'lock', lock: 'myLock' },
              { op: 'unlock', lock: 'myLock' },
            ],
          },
        ],
      },
    ],
  };
  await page.goto(`./#json=${encodeURIComponent(JSON.stringify(scenario))}&c=2`);
  await ready(page);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'safe');
  await expect(page.getByTestId('error-panel')).toHaveCount(0);
});

test('keyboard: space, arrows, shift+arrows, Home/End', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'reentrant');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Home');
  await expect(page.getByTestId('clock')).toHaveText('0');
  await page.keyboard.press('End');
  // The cursor moves on the next render: poll instead of reading once.
  await expect.poll(() => clock(page)).toBeGreaterThan(0);
  await page.keyboard.press('Home');
  await expect(page.getByTestId('clock')).toHaveText('0');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.transport__event')).toContainText('2/');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('.transport__event')).toContainText('1/');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  // shift+→ jumps to the next lock event: past event 1, the clock cannot go back to an earlier event
  await expect
    .poll(async () =>
      Number((await page.locator('.transport__event').textContent())?.split('/')[0].replace(/\D/g, '')),
    )
    .toBeGreaterThan(1);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
});

for (const [name, hash] of [
  ['damaged compressed data', '#s=%%%not-lz&c=3'],
  [
    'truncated compressed data',
    `#s=${compressToEncodedURIComponent('{"format":"lockscope/1","clients":[]}').slice(0, 12)}`,
  ],
  ['broken JSON', `#json=${encodeURIComponent('{"format":"lockscope/1", "clients": [')}`],
  [
    'schema error',
    `#json=${encodeURIComponent('{"format":"lockscope/1","clients":[{"id":"A","threads":[{"id":1,"program":[{"op":"lokc"}]}]}]}')}`,
  ],
  ['oversized link', `#s=${'A'.repeat(250_000)}`],
] as const) {
  test(`a bad link (${name}) shows the error panel and the default scenario`, async ({ page }) => {
    const errors = trackErrors(page);
    await page.goto(`./${hash}`);
    await expect(page.getByTestId('error-panel')).toBeVisible({ timeout: 15_000 });
    await ready(page);
    await expect(page.getByTestId('timeline')).toBeVisible();
    await page.getByTestId('step-forward').click();
    expect(errors).toEqual([]);
  });
}

test('a hostile-Lua link is contained', async ({ page }) => {
  const errors = trackErrors(page);
  const evil = (script: string) => ({ op: 'eval', script, keys: [], args: [] });
  const scenario = {
    format: 'lockscope/1',
    redis: { scriptBudget: 200000 },
    clients: [
      {
        id: 'A',
        threads: [
          {
            id: 1,
            program: [
              evil('while true do end'),
              evil("return js and js.global.document.title or 'no js'"),
              evil("return os and os.execute('id') or 'no os'"),
              evil("return load and load(string.dump(function() end)) and 'loaded' or 'no binary'"),
              evil('local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 1e6) end'),
              { op: 'lock', lock: 'myLock' },
              { op: 'unlock', lock: 'myLock' },
            ],
          },
        ],
      },
    ],
  };
  await page.goto(`./#s=${compressToEncodedURIComponent(JSON.stringify(scenario))}`);
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 30_000 });
  await expect(page.getByTestId('timeline')).toBeVisible();
  expect(await page.title()).toContain('LockScope');
  expect(errors).toEqual([]);
});

test('embed mode shows only the timeline and the transport', async ({ page }) => {
  await page.goto('./?embed=1');
  await ready(page);
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.getByTestId('play')).toBeVisible();
  await expect(page.getByTestId('scenario-picker')).toHaveCount(0);
  await expect(page.getByTestId('keyspace')).toHaveCount(0);
  await expect(page.getByTestId('console')).toHaveCount(0);
});

test('switching to 中文 translates the page', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('button', { name: '播放' })).toBeVisible();
  await expect(page.getByRole('button', { name: '复制链接' })).toBeVisible();
  await page.reload();
  await ready(page);
  await expect(page.getByRole('button', { name: '播放' })).toBeVisible();
  await page.getByRole('button', { name: 'EN', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
});

test('the console answers reads from the state at the cursor', async ({ page }) => {
  await countStateRequests(page);
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.keyboard.press('Home');
  // Move to just after the lock was acquired.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('ArrowRight');
    await frameAtCursor(page);
    // the key table, not the note listing a running script's own calls
    if ((await page.getByTestId('keyspace').locator('table').allTextContents()).join('').includes('myLock'))
      break;
  }
  const input = page.getByRole('textbox', { name: 'Redis command' });
  await input.fill('TYPE myLock');
  await input.press('Enter');
  await expect(page.getByTestId('console')).toContainText('hash');
  await input.fill('PTTL nosuchkey');
  await input.press('Enter');
  await expect(page.getByTestId('console')).toContainText('(integer) -2');
});

test('the last edited scenario survives a reload', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'reentrant');
  await page.goto('./');
  await ready(page);
  await expect(page.getByTestId('scenario-picker')).toHaveValue('reentrant');
});

test('lane menu: crash the node at the cursor re-runs with a new fault', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const handles = page.locator('.fault-handle');
  const before = await handles.count();
  await page.getByRole('button', { name: 'Actions for master' }).click();
  await page.getByRole('menuitem', { name: /Crash master here/ }).click();
  await expect(handles).toHaveCount(before + 1);
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  await expect(page.getByTestId('timeline')).toContainText('down');
});

test('lane menu: cutting a client off adds a partition fault and re-runs', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./');
  await ready(page);
  await pick(page, 'contention-wakeup');
  await page.keyboard.press('Home');
  const handles = page.locator('.fault-handle');
  const before = await handles.count();
  await page.getByRole('button', { name: 'Actions for B:1' }).click();
  await page.getByRole('menuitem', { name: /Cut B off from the others/ }).click();
  await expect(handles).toHaveCount(before + 1);
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  expect(errors).toEqual([]);
});

test('dragging a fault marker moves the fault and re-runs', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('./');
  await ready(page);
  await pick(page, 'gc-pause-lease-expiry');
  const handle = page.locator('.fault-handle').first();
  const label = await handle.getAttribute('aria-label');
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width / 2 + i * 30, box.y + box.height / 2);
  await page.mouse.up();
  await expect(handle).not.toHaveAttribute('aria-label', label!);
  const at = Number(/@ (\d+) ms/.exec((await handle.getAttribute('aria-label'))!)![1]);
  expect(at).toBeGreaterThan(5000);
  await ready(page);
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
});

test('exports the trace as JSON and the timeline as SVG', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await page.getByText('Export', { exact: true }).click();
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Trace JSON' }).click(),
  ]);
  expect(json.suggestedFilename()).toBe('lockscope-trace.json');
  const [svg] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'SVG' }).click(),
  ]);
  expect(svg.suggestedFilename()).toBe('lockscope-timeline.svg');
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'PNG' }).click(),
  ]);
  expect(png.suggestedFilename()).toBe('lockscope-timeline.png');
});

test('a console write becomes a redis action in the scenario and re-runs', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const input = page.getByRole('textbox', { name: 'Redis command' });
  await input.fill('SET greeting hello');
  await input.press('Enter');
  await expect(page.getByTestId('console')).toContainText('Added as a redis action');
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  await page.getByRole('button', { name: 'Jump to end' }).click();
  await expect(page.getByTestId('keyspace')).toContainText('greeting');
  await input.fill('GET greeting');
  await input.press('Enter');
  await expect(page.getByTestId('console')).toContainText('"hello"');
});

test('a valid scenario the engine cannot run yet still leaves a usable page', async ({ page }) => {
  const errors = trackErrors(page);
  const scenario = {
    format: 'lockscope/1',
    redis: { topology: 'sentinel', replicas: [{ lagMs: 40 }] },
    clients: [{ id: 'A', threads: [{ id: 1, program: [{ op: 'lock', lock: 'myLock' }] }] }],
  };
  await page.goto(`./#json=${encodeURIComponent(JSON.stringify(scenario))}`);
  await ready(page);
  await expect(page.getByTestId('timeline')).toBeVisible();
  expect(errors).toEqual([]);
});

test('the JSON editor shows schema errors at their path', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.getByRole('button', { name: 'Edit JSON' }).click();
  const editor = page.locator('.json-editor__content');
  // The editor fills its lines in an effect after it mounts: read them once the text is in.
  await expect(editor).toContainText('"op": "lock"');
  const text = (await editor.innerText()).replace('"op": "lock"', '"op": "lokc"');
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('.issues')).toContainText('program[0].op');
  await expect(page.locator('.json-editor__problem').first()).toHaveText('"lokc"');
  // ...and it stays: the editor's own syntax check, due 300 ms after the last key, found this text
  // valid JSON and wiped the schema's mark when Apply's answer had come before it. A timer set in
  // the page after that one fires after it.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 400)));
  await expect(page.locator('.json-editor__problem').first()).toHaveText('"lokc"', { timeout: 1 });
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'safe');
});

test('imports a scenario from a JSON file', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  const scenario = {
    format: 'lockscope/1',
    title: 'Imported',
    clients: [
      {
        id: 'Z',
        threads: [
          {
            id: 1,
            program: [
              { op: 'lock', lock: 'imported' },
              { op: 'unlock', lock: 'imported' },
            ],
          },
        ],
      },
    ],
  };
  await page.locator('input[type=file]').setInputFiles({
    name: 'scenario.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  await expect(page.getByRole('heading', { name: 'Imported' })).toBeVisible();
  await expect(page.getByTestId('timeline')).toContainText('Z:1');
  await page.locator('input[type=file]').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":'),
  });
  await expect(page.getByTestId('error-panel')).toContainText('could not be imported');
});

test('a lock nobody can release is judged stuck, not safe (L1)', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'naive-setnx-deadlock');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'stuck');
  await expect(page.getByTestId('verdict')).toHaveText('Stuck');
  await expect(page.locator('.violations__item[data-kind="L1"]')).toContainText('gone owner: A:1');
});

test('while A waits for l3, its partial MultiLock hold is listed', async ({ page }) => {
  await countStateRequests(page);
  await page.goto('./');
  await ready(page);
  await pick(page, 'multilock-all-or-nothing');
  await page.keyboard.press('Home');
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('ArrowRight');
    await frameAtCursor(page);
    const p = page.getByTestId('partial-holds');
    if ((await p.count()) && (await p.textContent())?.includes('l1, l2')) break;
  }
  await expect(page.getByTestId('partial-holds')).toContainText('l1, l2');
});

test('stepping inside the lock script: its calls are listed as they run, the keys change when it returns (D4)', async ({
  page,
}) => {
  await countStateRequests(page);
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.keyboard.press('Home');
  const keyTable = page.getByTestId('keyspace').locator('table');
  const inside = page.getByTestId('inside-script');
  const hasLock = async () => (await keyTable.allTextContents()).join('').includes('myLock');
  // into A:1's lock script, past its HINCRBY: the call is listed, the keyspace still has no myLock
  let seen = false;
  for (let i = 0; i < 60 && !seen; i++) {
    await page.keyboard.press('ArrowRight');
    await frameAtCursor(page);
    seen = (await inside.count()) > 0 && /hincrby myLock/i.test((await inside.textContent()) ?? '');
    if (!seen) expect(await hasLock()).toBe(false);
  }
  expect(seen).toBe(true);
  expect(await hasLock()).toBe(false);
  // on to the script's return: the note goes, and the key is there with A's field
  for (let i = 0; i < 20 && (await inside.count()) > 0; i++) {
    await page.keyboard.press('ArrowRight');
    await frameAtCursor(page);
  }
  await expect(inside).toHaveCount(0);
  expect(await hasLock()).toBe(true);
});
