import { describe, expect, it } from 'vitest';
import { docEnd, followWide, wideSelection, wideShown } from './wide-selection';

// a window over document positions [100, 150)
const span = { off: 100, n: 50 };

describe('wide selections', () => {
  it('shows the part in the window, or none when it lies outside', () => {
    expect(wideShown({ anchor: 0, focus: 1000 }, span)).toEqual([0, 50]);
    expect(wideShown({ anchor: 120, focus: 1000 }, span)).toEqual([20, 50]);
    expect(wideShown({ anchor: 1000, focus: 130 }, span)).toEqual([30, 50]);
    expect(wideShown({ anchor: 0, focus: 90 }, span)).toBeNull();
  });

  it('names its direction by which end is the focus', () => {
    expect(wideSelection({ anchor: 500, focus: 10 })).toEqual({ start: 10, end: 500, dir: 'backward' });
    expect(wideSelection({ anchor: 10, focus: 500 })).toEqual({ start: 10, end: 500, dir: 'forward' });
  });

  it('follows a focus moved from the anchor cut at the window edge, and drops anything else', () => {
    // anchor far above: the textarea's selection starts at the window's start
    const w = { anchor: 5, focus: 140 };
    expect(followWide(w, { start: 0, end: 30, dir: 'forward' }, span)).toEqual({ anchor: 5, focus: 130 });
    // a click: collapsed
    expect(followWide(w, { start: 30, end: 30, dir: 'none' }, span)).toBeNull();
    // a new selection that does not start at the cut anchor
    expect(followWide(w, { start: 10, end: 30, dir: 'forward' }, span)).toBeNull();
    // anchor in the window: the textarea's selection is the whole truth
    expect(followWide({ anchor: 110, focus: 900 }, { start: 10, end: 40, dir: 'forward' }, span)).toBeNull();
    // anchor below the window, focus moved up: a backward selection ending at the window's end
    expect(followWide({ anchor: 900, focus: 120 }, { start: 15, end: 50, dir: 'backward' }, span)).toEqual({
      anchor: 900,
      focus: 115,
    });
  });

  it("goes to the document's ends on Home/End, and on macOS's Cmd+Up/Down only on a Mac", () => {
    expect(docEnd({ key: 'Home', metaKey: false }, 'Linux x86_64')).toBe('start');
    expect(docEnd({ key: 'End', metaKey: false }, 'Linux x86_64')).toBe('end');
    expect(docEnd({ key: 'ArrowDown', metaKey: true }, 'MacIntel')).toBe('end');
    expect(docEnd({ key: 'ArrowUp', metaKey: true }, 'MacIntel')).toBe('start');
    expect(docEnd({ key: 'ArrowUp', metaKey: true }, 'Win32')).toBeNull();
    expect(docEnd({ key: 'ArrowUp', metaKey: false }, 'MacIntel')).toBeNull();
  });
});
