import { describe, expect, it } from 'vitest';
import { focusWindow, requestView, useViewWindow } from './view-window';

describe('focusWindow', () => {
  it('makes a short violation in a long run a visible share of the window', () => {
    const [a, b] = focusWindow(30_008, 30_108, 41_006);
    expect(a).toBeLessThan(30_008);
    expect(b).toBeGreaterThan(30_108);
    // 100 ms of a ~3.4 s window: ~3 % of the width instead of 0.25 % of the whole run
    expect(100 / (b - a)).toBeGreaterThan(0.025);
    expect(b - a).toBeLessThan(41_006 / 5);
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
