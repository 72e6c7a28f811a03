import { expect, type Page } from '@playwright/test';

// The inspectors (the keyspace, the Threads table and its partial holds, the script's calls)
// show the engine's state at the cursor, which the page asks its worker for after every cursor
// move (controller.ts, startVisibleSync): they lag the transport's event counter by a worker's
// round trip, more on a loaded machine. A test that steps the cursor and reads them at once reads
// the state of an earlier event, and a loop that steps "until the keyspace shows X" then stops
// past the event it was looking for. Such tests call `countStateRequests` before the page loads
// and `frameAtCursor` after each move.

/** Counts the page's open `stateAt` requests to its workers (call before `page.goto`). */
export async function countStateRequests(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.Worker;
    let open = 0;
    (window as unknown as { __e2eOpenStateRequests: () => number }).__e2eOpenStateRequests = () => open;
    window.Worker = class extends Native {
      private readonly asked = new Set<number>();
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        // registered before the page's own onmessage, so the count drops before the page reacts
        this.addEventListener('message', (ev: MessageEvent<{ id?: unknown }>) => {
          const id = ev.data?.id;
          if (typeof id === 'number' && this.asked.delete(id)) open--;
        });
      }
      override postMessage(message: unknown, options?: StructuredSerializeOptions | Transferable[]): void {
        const m = message as { type?: unknown; id?: unknown } | null;
        if (m?.type === 'stateAt' && typeof m.id === 'number') {
          this.asked.add(m.id);
          open++;
        }
        super.postMessage(message, options as StructuredSerializeOptions);
      }
    };
  });
}

/**
 * Waits until the state on screen is the one at the cursor: no `stateAt` request open, and a
 * frame (and a task) after the last answer, so React has drawn it.
 */
export async function frameAtCursor(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const open = (window as unknown as { __e2eOpenStateRequests?: () => number })
            .__e2eOpenStateRequests;
          if (open === undefined)
            throw new Error('countStateRequests(page) was not called before the page loaded');
          if (open() > 0) return open();
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          return open();
        }),
      { message: 'the state at the cursor never came from the worker', intervals: [0, 20, 50, 100] },
    )
    .toBe(0);
}
