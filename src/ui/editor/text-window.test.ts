import { describe, expect, it } from 'vitest';
import { EditHistory, type Edit } from './edit-history';
import { lineStarts, widestLine } from './json-highlight';
import { applyChange, diffText, joinWindow, linesAround, windowOf, windowText } from './text-window';

const doc = Array.from({ length: 50 }, (_, i) => `line ${i}${'x'.repeat(i % 7)}`).join('\n');
const starts = lineStarts(doc);

describe('windowOf', () => {
  it('cuts whole lines, and the document is before + window + after', () => {
    const w = windowOf(doc, starts, 10, 20);
    const inner = windowText(doc, w);
    expect(joinWindow(w, inner)).toBe(doc);
    expect(inner.split('\n')).toEqual(doc.split('\n').slice(10, 20));
    expect(w.before.endsWith('\n')).toBe(true);
    expect(w.after.startsWith('\n')).toBe(true);
    expect(w.first).toBe(10);
    expect(w.afterLines).toBe(30);
    // typing at the window's end extends its last line, not the next one
    const typed = joinWindow(w, `${inner}!`);
    expect(typed.split('\n')[19]).toBe(`${doc.split('\n')[19]}!`);
    expect(typed.split('\n')[20]).toBe(doc.split('\n')[20]);
  });

  it('at the document edges has nothing before or after', () => {
    const all = windowOf(doc, starts, 0, 50);
    expect(all.before).toBe('');
    expect(all.after).toBe('');
    expect(windowText(doc, all)).toBe(doc);
    expect(windowOf(doc, starts, 45, 80).afterLines).toBe(0);
  });

  it('knows the widest line outside it', () => {
    const w = windowOf(doc, starts, 10, 20);
    const outside = [...doc.split('\n').slice(0, 10), ...doc.split('\n').slice(20)];
    expect(w.outsideWidest).toBe(Math.max(...outside.map((l) => l.length)));
    expect(widestLine(doc, starts, 10, 20)).toBe(
      Math.max(
        ...doc
          .split('\n')
          .slice(10, 20)
          .map((l) => l.length),
      ),
    );
  });

  it('linesAround keeps what must stay and a margin, within the document', () => {
    expect(linesAround(100, 130, 50, 1000)).toEqual([50, 181]);
    expect(linesAround(10, 20, 50, 40)).toEqual([0, 40]);
  });
});

describe('diffText', () => {
  it('finds what changed between two texts', () => {
    expect(diffText('abcdef', 'abXdef')).toEqual({ at: 2, removed: 'c', inserted: 'X' });
    expect(diffText('abc', 'abcd')).toEqual({ at: 3, removed: '', inserted: 'd' });
    expect(diffText('aaa', 'aa')).toEqual({ at: 2, removed: 'a', inserted: '' });
    expect(diffText('same', 'same')).toBeNull();
  });

  it('applying the change gives the new text', () => {
    for (const [a, b] of [
      ['{"a": 1}', '{"a": 12}'],
      ['', 'xyz'],
      ['xyz', ''],
      ['a\nb\nc', 'a\nc'],
    ]) {
      const c = diffText(a, b);
      expect(c && applyChange(a, c)).toBe(b);
    }
  });
});

describe('EditHistory', () => {
  const edit = (at: number, removed: string, inserted: string): Edit => ({
    at,
    removed,
    inserted,
    before: [at, at + removed.length],
    after: [at + inserted.length, at + inserted.length],
  });

  it('undoes and redoes a step, typing run together into one', () => {
    const h = new EditHistory();
    let text = 'ab';
    const type = (e: Edit) => {
      text = applyChange(text, e);
      h.record(e);
    };
    type(edit(2, '', 'c'));
    type(edit(3, '', 'd'));
    type(edit(4, '', '\n'));
    type(edit(5, '', 'e'));
    expect(text).toBe('abcd\ne');
    const u1 = h.undo()!;
    text = applyChange(text, u1.change);
    expect(text).toBe('abcd\n');
    const u2 = h.undo()!;
    text = applyChange(text, u2.change);
    expect(text).toBe('abcd');
    const u3 = h.undo()!;
    text = applyChange(text, u3.change);
    expect(text).toBe('ab');
    expect(u3.select).toEqual([2, 2]);
    expect(h.undo()).toBeNull();
    const r = h.redo()!;
    text = applyChange(text, r.change);
    expect(text).toBe('abcd');
    expect(r.select).toEqual([4, 4]);
  });

  it('runs Backspaces together, and a new edit drops what was undone', () => {
    const h = new EditHistory();
    let text = 'hello';
    for (let at = 4; at >= 2; at--) {
      const e = edit(at, text[at], '');
      text = applyChange(text, e);
      h.record(e);
    }
    expect(text).toBe('he');
    text = applyChange(text, h.undo()!.change);
    expect(text).toBe('hello');
    h.record(edit(5, '', '!'));
    expect(h.redo()).toBeNull();
  });
});
