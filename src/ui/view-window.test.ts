import { describe, expect, it } from 'vitest';
import { focusWindow, requestView, useViewWindow } from './view-window';

describe('focusWindow', () => {
  it('makes a short violation in a long run a visible share of the window', () => {
    const [a, b] = focusWindow(30_008, 30_108, 41_006);
    expect(a).toBeLessThan(30_008);
    expect(b).toBeGreaterThan(30_108);
    expect(100 / (b - a)).toBeGreaterThanOrEqual(0.2);
    expect(b - a).toBeLessThan(41_006 / 5);
  });

  // D9: redlock-pause-after-validity's V1 (10044-10054 of 12 s) and fencing-saves-gc-pause's
  // (10008-10058 of 15 s) were ~1 s windows, their holds ~10 px wide.
  it.each([
    [10_044, 10_054, 12_070],
    [10_008, 10_058, 15_034],
  ])('zooms to a %i-%i ms violation so it fills a fifth of the width or more', (from, to, end) => {
    const [a, b] = focusWindow(from, to, end);
    expect(a).toBeLessThan(from);
    expect(b).toBeGreaterThan(to);
    expect((to - from) / (b - a)).toBeGreaterThanOrEqual(0.19);
    // still some context each side: at least half the violation's length
    expect(from - a).toBeGreaterThanOrEqual((to - from) / 2);
    expect(b - to).toBeGreaterThanOrEqual((to - from) / 2);
  });

  it('gives a 1 ms violation a window of a few ms, and a long one no more than its own context', () => {
    const [a, b] = focusWindow(500, 501, 60_000);
    expect(b - a).toBeGreaterThanOrEqual(5);
    expect(b - a).toBeLessThanOrEqual(10);
    const [c, d] = focusWindow(10_000, 30_000, 40_000);
    expect(c).toBe(0);
    expect(d).toBe(42_000);
  });

  it('never starts before 0 and gives a point some context', () => {
    const [a, b] = focusWindow(5, 5, 1000);
    expect(a).toBe(0);
    expect(b).toBeGreaterThan(5);
  });
});

describe('requestView', () => {
  it('counts a repeated request as new', () => {
    requestView(1, 2);
    const first = useViewWindow.getState().request;
    requestView(1, 2);
    expect(useViewWindow.getState().request).not.toBe(first);
    expect(useViewWindow.getState().request?.seq).toBe((first?.seq ?? 0) + 1);
  });
});
