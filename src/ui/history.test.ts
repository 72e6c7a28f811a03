import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_HISTORY, record, restore, takeRedo, takeUndo, useHistory, type HistoryEntry } from './history';

const entry = (n: number): HistoryEntry => ({
  scenario: { seed: n },
  builtinId: null,
  originId: 'basic-lock',
});

describe('undo/redo stacks', () => {
  beforeEach(() => useHistory.setState({ undo: [], redo: [] }));

  it('walks back and forth through the documents', () => {
    const [a, b, c] = [entry(1), entry(2), entry(3)];
    record(a);
    record(b);
    // now showing c
    expect(takeUndo(c)).toBe(b);
    expect(takeUndo(b)).toBe(a);
    expect(takeUndo(a)).toBeNull();
    expect(takeRedo(a)).toBe(b);
    expect(takeRedo(b)).toBe(c);
    expect(takeRedo(c)).toBeNull();
  });

  it('forgets redo after a new edit', () => {
    const [a, b] = [entry(1), entry(2)];
    record(a);
    expect(takeUndo(b)).toBe(a);
    record(a);
    expect(useHistory.getState().redo).toEqual([]);
  });

  it('does not stack the same document twice', () => {
    const a = entry(1);
    record(a);
    record(a);
    expect(useHistory.getState().undo).toHaveLength(1);
  });

  it('keeps at most MAX_HISTORY steps', () => {
    for (let i = 0; i < MAX_HISTORY + 5; i++) record(entry(i));
    expect(useHistory.getState().undo).toHaveLength(MAX_HISTORY);
    expect(useHistory.getState().undo[0].scenario).toEqual({ seed: 5 });
  });

  it('puts an entry back when its re-run failed', () => {
    const [a, b] = [entry(1), entry(2)];
    record(a);
    const got = takeUndo(b)!;
    restore('undo', got);
    expect(useHistory.getState()).toEqual({ undo: [a], redo: [] });
  });
});
