/**
 * Undo and redo for a document edited through a window (text-window.ts). The browser's own undo
 * forgets everything when a textarea's value is set, which moving the window does, so a windowed
 * document keeps its edits here, by position in the whole document. Typing and deleting run
 * together into one step as the browser's do, until the caret jumps or a line ends.
 */
import { invertChange, type Change } from './text-window';

/** A selection as [start, end], in the whole document. */
export type Range = readonly [number, number];

export interface Edit extends Change {
  /** the selection before the edit (where an undo puts it back) and after it (a redo) */
  before: Range;
  after: Range;
}

/** How many steps are kept. */
const DEPTH = 500;

const typing = (e: Change) => e.removed === '' && e.inserted.length > 0 && !e.inserted.includes('\n');
const deleting = (e: Change) => e.inserted === '' && e.removed.length > 0 && !e.removed.includes('\n');

/** `next` continues `last`: more typing right after it, or more deleting right before or at it. */
function joined(last: Edit, next: Edit): Edit | null {
  if (typing(last) && typing(next) && next.at === last.at + last.inserted.length)
    return { ...last, inserted: last.inserted + next.inserted, after: next.after };
  if (deleting(last) && deleting(next)) {
    // Backspace: the next deletion ends where the last began; Delete: it starts at the same place
    if (next.at + next.removed.length === last.at)
      return { ...last, at: next.at, removed: next.removed + last.removed, after: next.after };
    if (next.at === last.at) return { ...last, removed: last.removed + next.removed, after: next.after };
  }
  return null;
}

export class EditHistory {
  private done: Edit[] = [];
  private undone: Edit[] = [];

  record(edit: Edit): void {
    this.undone = [];
    const last = this.done[this.done.length - 1];
    const merged = last ? joined(last, edit) : null;
    if (merged) this.done[this.done.length - 1] = merged;
    else this.done.push(edit);
    if (this.done.length > DEPTH) this.done.shift();
  }

  /** The change that undoes the last step, and the selection to put back; null when there is none. */
  undo(): { change: Change; select: Range } | null {
    const edit = this.done.pop();
    if (!edit) return null;
    this.undone.push(edit);
    return { change: invertChange(edit), select: edit.before };
  }

  /** The change that redoes the last undone step, and the selection after it. */
  redo(): { change: Change; select: Range } | null {
    const edit = this.undone.pop();
    if (!edit) return null;
    this.done.push(edit);
    return { change: edit, select: edit.after };
  }

  clear(): void {
    this.done = [];
    this.undone = [];
  }
}
