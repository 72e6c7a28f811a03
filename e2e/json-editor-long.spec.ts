import { expect, test, type Page } from '@playwright/test';
import lz from 'lz-string';
import { watchdogCostScenario } from '../src/engine/scenario/scale/watchdog_cost';

// A document of about 4,600 lines (100 KB) is edited through a window of its lines
// (editor-surface.ts): typing, the selection, undo and redo, Ctrl+A with the clipboard, the
// document's start and end, IME input and Tab must behave as in a short one.
const doc = watchdogCostScenario({ clients: 1, threadsPerClient: 50, locksPerThread: 10, until: 60_000 });
const text = JSON.stringify(doc, null, 2);

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function open(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`./#s=${lz.compressToEncodedURIComponent(JSON.stringify(doc))}&c=0`);
  await expect(page.getByTestId('play')).toBeEnabled({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Edit JSON' }).click();
  const input = page.locator('.json-editor__input');
  // The editor fills its textarea in an effect after it mounts: the tests read it from there on.
  await expect(input).toHaveValue(/"format": "lockscope\/1"/);
  return input;
}

/** The whole document, as Ctrl+A and Ctrl+C give it. */
async function whole(page: Page): Promise<string> {
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Control+c');
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Puts the caret just inside the first string that starts with `needle`, scrolled into view. */
async function caretAt(page: Page, needle: string): Promise<number> {
  const line = text.slice(0, text.indexOf(needle)).split('\n').length - 1;
  await page.locator('.json-editor__scroller').evaluate((el, l) => (el.scrollTop = l * 17 - 100), line);
  await expect(page.locator('.json-editor__line', { hasText: needle }).first()).toBeVisible();
  await page.locator('.json-editor__input').evaluate((el: HTMLTextAreaElement, n) => {
    const at = el.value.indexOf(n) + 1;
    el.focus();
    el.setSelectionRange(at, at);
  }, needle);
  return text.indexOf(needle) + 1;
}

/** basic-lock's JSON in the editor (about 40 lines: not windowed), and its text. */
async function openShort(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await expect(page.getByTestId('play')).toBeEnabled();
  await page.getByTestId('scenario-picker').selectOption('basic-lock');
  // The play button is enabled by the default scenario's run already; the picker (controlled by
  // the store) shows basic-lock once basic-lock's run is the page's.
  await expect(page.getByTestId('scenario-picker')).toHaveValue('basic-lock');
  await page.getByRole('button', { name: 'Edit JSON' }).click();
  const input = page.locator('.json-editor__input');
  // The editor fills its textarea in an effect after it mounts: read it once the text is in.
  await expect(input).toHaveValue(/"ms": \d+/);
  return { input, short: await input.inputValue() };
}

/** Puts the caret after the first `"ms": <digits>` of the short document; its position. */
async function caretAfterMs(page: Page, short: string): Promise<number> {
  const m = /"ms": \d+/.exec(short)!;
  const at = m.index + m[0].length;
  await page.locator('.json-editor__input').evaluate((el: HTMLTextAreaElement, n) => {
    el.focus();
    el.setSelectionRange(n, n);
  }, at);
  return at;
}

test('a long document: typing, undo and redo, Ctrl+A with the clipboard', async ({ page }) => {
  const input = await open(page);
  // only a window of the text is in the textarea
  expect((await input.inputValue()).length).toBeLessThan(text.length / 4);
  const at = await caretAt(page, '"lock:C1:30:5"');
  await page.keyboard.type('ab');
  await page.keyboard.press('Backspace');
  const typed = `${text.slice(0, at)}a${text.slice(at)}`;
  expect(await whole(page)).toBe(typed);
  await expect(page.locator('.json-editor__line', { hasText: '"alock:C1:30:5"' })).toBeVisible();
  // undo: the typing and the deleting are one step each, as in the browser's own undo
  await page.locator('.json-editor__input').evaluate((el: HTMLTextAreaElement) => el.focus());
  await page.keyboard.press('Control+z');
  expect(await whole(page)).toBe(`${text.slice(0, at)}ab${text.slice(at)}`);
  await page.keyboard.press('Control+z');
  expect(await whole(page)).toBe(text);
  await page.keyboard.press('Control+Shift+z');
  await page.keyboard.press('Control+Shift+z');
  expect(await whole(page)).toBe(typed);
  // Ctrl+A and typing replace the whole document, not the window
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('{"format": "lockscope/1"}');
  expect(await whole(page)).toBe('{"format": "lockscope/1"}');
  await page.keyboard.press('Control+z');
  expect(await whole(page)).toBe(typed);
});

test("a long document: the document's end, a caret scrolled away from, IME and Tab", async ({ page }) => {
  await open(page);
  const input = page.locator('.json-editor__input');
  const at = await caretAt(page, '"lock:C1:3:2"');
  // scrolled far away (the window has left the caret's line), the caret stays where it was: the
  // next key types there
  await page.locator('.json-editor__scroller').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect.poll(() => input.evaluate((el: HTMLTextAreaElement) => el.value.includes('"lock:C1:3:2"'))).toBe(false);
  await page.keyboard.type('Q');
  expect(await whole(page)).toBe(`${text.slice(0, at)}Q${text.slice(at)}`);
  await expect(page.locator('.json-editor__line', { hasText: '"Qlock:C1:3:2"' })).toBeInViewport();
  // Ctrl+End is the document's end
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' ');
  const withEnd = `${text.slice(0, at)}Q${text.slice(at)} `;
  expect(await whole(page)).toBe(withEnd);
  await expect(page.locator('.json-editor__line').last()).toBeInViewport();
  // an IME's composition lands as typed text, and undoes as one step
  await page.keyboard.press('Control+Home');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'ん', selectionStart: 1, selectionEnd: 1 });
  await cdp.send('Input.imeSetComposition', { text: 'んで', selectionStart: 2, selectionEnd: 2 });
  await cdp.send('Input.insertText', { text: '锁' });
  expect(await whole(page)).toBe(`锁${withEnd}`);
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+z');
  expect(await whole(page)).toBe(withEnd);
  // Tab leaves the editor
  await page.keyboard.press('Tab');
  await expect(page.locator('.json-editor__input')).not.toBeFocused();
});

test('a long document pasted over a short one is windowed from there, and the paste undoes', async ({
  page,
}) => {
  const { input, short } = await openShort(page);
  // pasted (Playwright's insertText of 100 KB takes Chromium about a minute, typed or not)
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await input.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Control+v');
  await expect.poll(async () => (await input.inputValue()).length).toBeLessThan(text.length / 4);
  expect(await whole(page)).toBe(text);
  await page.keyboard.press('Control+z');
  expect(await whole(page)).toBe(short);
});

test('Reset after an applied edit puts the origin text back in the editor', async ({ page }) => {
  const { input, short: origin } = await openShort(page);
  // a digit changed, the formatting kept: the applied scenario prints as the text typed
  const at = await caretAfterMs(page, origin);
  await page.keyboard.type('1');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('reset')).toBeVisible();
  expect(await input.inputValue()).toBe(`${origin.slice(0, at)}1${origin.slice(at)}`);
  await page.getByTestId('reset').click();
  await expect(page.getByTestId('reset')).toBeHidden();
  await expect.poll(() => input.inputValue()).toBe(origin);
});

test('a long document: the window stays small after a selection of the whole or a long part', async ({ page }) => {
  const input = await open(page);
  const small = text.length / 4;
  // Ctrl+A, typing and its undo: the whole document is selected again, the window is not all of it
  await caretAt(page, '"lock:C1:20:2"');
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('{}');
  await page.keyboard.press('Control+z');
  expect((await input.inputValue()).length).toBeLessThan(small);
  // ...and still the whole document: typing replaces all of it
  await page.keyboard.insertText('[]');
  expect(await whole(page)).toBe('[]');
  await page.keyboard.press('Control+z');
  expect((await input.inputValue()).length).toBeLessThan(small);
  expect(await whole(page)).toBe(text);
  // Ctrl+Shift+End from the middle selects to the end, in a window that holds only its end
  const at = await caretAt(page, '"lock:C1:20:2"');
  await page.keyboard.press('Control+Shift+End');
  expect((await input.inputValue()).length).toBeLessThan(small);
  await page.keyboard.press('Control+c');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text.slice(at));
  // Shift+Up moves its focus, from the last line's "}" to the line above's first column
  await page.keyboard.press('Shift+ArrowUp');
  await page.keyboard.press('Control+c');
  const above = text.lastIndexOf('\n', text.length - 3) + 1;
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text.slice(at, above + 1));
  // a click elsewhere and typing: still a small window
  await caretAt(page, '"lock:C1:22:2"');
  await page.locator('.json-editor__scroller').scrollIntoViewIfNeeded();
  const box = (await page.locator('.json-editor__line', { hasText: '"lock:C1:22:2"' }).first().boundingBox())!;
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  await page.keyboard.type('x');
  expect((await input.inputValue()).length).toBeLessThan(small);
  const line = text.lastIndexOf('\n', text.indexOf('"lock:C1:22:2"')) + 1;
  expect(await whole(page)).toBe(`${text.slice(0, line)}x${text.slice(line)}`);
});

test('a long document: scrolling away from the caret moves the window only near its edges', async ({ page }) => {
  const input = await open(page);
  await caretAt(page, '"lock:C1:1:2"');
  await page.locator('.json-editor__scroller').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect.poll(() => input.evaluate((el: HTMLTextAreaElement) => el.value.includes('"lock:C1:1:2"'))).toBe(false);
  // 20 frames of 30 px: 35 lines, within the window's margin of 150
  const sets = await input.evaluate(async (ta: HTMLTextAreaElement) => {
    const sc = document.querySelector('.json-editor__scroller') as HTMLElement;
    let n = 0;
    const d = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!;
    Object.defineProperty(ta, 'value', {
      get() {
        return d.get!.call(this) as string;
      },
      set(v: string) {
        n++;
        d.set!.call(this, v);
      },
    });
    for (let i = 0; i < 20; i++) {
      sc.scrollTop += 30;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    return n;
  });
  expect(sets).toBe(0);
  // the caret is still where it was: the next key types there
  await page.keyboard.type('Q');
  await expect(page.locator('.json-editor__line', { hasText: '"Qlock:C1:1:2"' })).toBeInViewport();
});

test('a long document: Shift+click after scrolling away from the caret selects from the caret', async ({ page }) => {
  const input = await open(page);
  const at = await caretAt(page, '"lock:C1:1:2"');
  await page.locator('.json-editor__scroller').evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect.poll(() => input.evaluate((el: HTMLTextAreaElement) => el.value.includes('"lock:C1:1:2"'))).toBe(false);
  await page.locator('.json-editor__scroller').scrollIntoViewIfNeeded();
  const box = (await page.locator('.json-editor__scroller').boundingBox())!;
  await page.keyboard.down('Shift');
  await page.mouse.click(box.x + 200, box.y + 100);
  await page.keyboard.up('Shift');
  await page.keyboard.press('Control+c');
  const got = await page.evaluate(() => navigator.clipboard.readText());
  // from the caret to the click, a part of the document's middle
  expect(got.length).toBeGreaterThan(text.length / 3);
  expect(text.slice(at, at + got.length)).toBe(got);
  expect((await input.inputValue()).length).toBeLessThan(text.length / 4);
});

test('a document under the window size redraws on scroll only near the drawn lines’ edge', async ({ page }) => {
  const short = watchdogCostScenario({ clients: 1, threadsPerClient: 10, locksPerThread: 10, until: 60_000 });
  const shortText = JSON.stringify(short, null, 2);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`./#s=${lz.compressToEncodedURIComponent(JSON.stringify(short))}&c=0`);
  await expect(page.getByTestId('play')).toBeEnabled({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Edit JSON' }).click();
  const input = page.locator('.json-editor__input');
  // the textarea holds it all: not windowed
  await expect.poll(async () => (await input.inputValue()).length).toBe(shortText.length);
  const draws = await page.evaluate(async () => {
    const lines = document.querySelector('.json-editor__lines') as HTMLElement;
    const sc = document.querySelector('.json-editor__scroller') as HTMLElement;
    let n = 0;
    new MutationObserver(() => n++).observe(lines, { childList: true });
    // 20 frames of 2 lines: 40 lines, well within the 200 drawn beyond the view
    for (let i = 0; i < 20; i++) {
      sc.scrollTop += 34;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    return n;
  });
  expect(draws).toBe(0);
  // scrolled far, the lines in view are drawn
  await page.locator('.json-editor__scroller').evaluate((el) => (el.scrollTop = el.scrollHeight - el.clientHeight));
  await expect(page.locator('.json-editor__line').last()).toHaveText('}');
  const count = shortText.split('\n').length;
  await expect(page.locator('.json-editor__numbers')).toContainText(String(count));
});

test('a short document grown past the window size keeps the undo steps typed before', async ({ page }) => {
  const { input, short } = await openShort(page);
  const at = await caretAfterMs(page, short);
  await page.keyboard.type('7');
  const typed = `${short.slice(0, at)}7${short.slice(at)}`;
  // then a long text pasted at the start: windowed from there
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+v');
  await expect.poll(async () => (await input.inputValue()).length).toBeLessThan(text.length / 4);
  await page.keyboard.press('Control+z');
  expect(await whole(page)).toBe(typed);
  await page.keyboard.press('Control+z');
  expect(await whole(page)).toBe(short);
  await page.keyboard.press('Control+Shift+z');
  await page.keyboard.press('Control+Shift+z');
  expect(await whole(page)).toBe(`${text}${typed}`);
});

test('a long document: Ctrl+A then a paste replaces the whole document with the text pasted', async ({ page }) => {
  const input = await open(page);
  await input.focus();
  await page.evaluate(() => navigator.clipboard.writeText('{"format": "lockscope/1"}'));
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Control+v');
  expect(await whole(page)).toBe('{"format": "lockscope/1"}');
  await page.keyboard.press('Control+z');
  expect(await whole(page)).toBe(text);
  // a browser that gives a paste's text as `data`, with no dataTransfer (Chromium gives both)
  await page.keyboard.press('Control+a');
  await input.evaluate((el) =>
    el.dispatchEvent(
      new InputEvent('beforeinput', { inputType: 'insertFromPaste', data: '{}', cancelable: true, bubbles: true }),
    ),
  );
  // (the textarea holds all of so short a document)
  expect(await input.inputValue()).toBe('{}');
});

test("a long document: macOS's Cmd+↑/↓ go to the document's start and end; Tab leaves a parked caret where it is", async ({
  page,
}) => {
  await page.addInitScript(() => Object.defineProperty(navigator, 'platform', { get: () => 'MacIntel' }));
  const input = await open(page);
  await caretAt(page, '"lock:C1:3:2"');
  await page.keyboard.press('Meta+ArrowDown');
  await page.keyboard.type(' ');
  await page.keyboard.press('Meta+ArrowUp');
  await page.keyboard.type('.');
  expect(await whole(page)).toBe(`.${text} `);
  // Cmd+Shift+↓ selects to the end
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  const at = await caretAt(page, '"lock:C1:40:2"');
  await page.keyboard.press('Meta+Shift+ArrowDown');
  await page.keyboard.press('Control+c');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text.slice(at));
  // a caret scrolled away from: Tab leaves without scrolling back to it
  await caretAt(page, '"lock:C1:3:2"');
  const scroller = page.locator('.json-editor__scroller');
  await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect.poll(() => input.evaluate((el: HTMLTextAreaElement) => el.value.includes('"lock:C1:3:2"'))).toBe(false);
  const top = await scroller.evaluate((el) => el.scrollTop);
  await page.keyboard.press('Tab');
  await expect(input).not.toBeFocused();
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(top);
});
