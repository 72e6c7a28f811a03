/**
 * What a key or an input event asks of the editor's surface (editor-surface.ts), apart from when
 * the surface acts on it: the surface keeps undo and, for a windowed document, Ctrl+A and the
 * document's ends, because the browser's would act on the textarea's window only.
 */
import { docEnd } from './wide-selection';

export type KeyCommand = 'apply' | 'undo' | 'redo' | 'selectAll' | 'start' | 'end';

/** The command a keydown names, if any; the surface decides whether it is its to carry out. */
export function keyCommand(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey'>,
  platform: string,
): KeyCommand | null {
  const mod = e.ctrlKey || e.metaKey;
  if (!mod) return null;
  if (e.key === 'Enter') return 'apply';
  const key = e.key.toLowerCase();
  if ((key === 'z' && e.shiftKey) || (key === 'y' && e.ctrlKey && !e.metaKey)) return 'redo';
  if (key === 'z') return 'undo';
  if (key === 'a') return 'selectAll';
  return docEnd(e, platform);
}

/** The text an input event puts in place of the selection ('' for a deletion). */
export function insertedText(e: Pick<InputEvent, 'inputType' | 'data' | 'dataTransfer'>): string {
  const t = e.inputType;
  if (t === 'insertFromPaste' || t === 'insertFromDrop')
    // a textarea's paste may come as `data` alone (the Input Events spec's way for text fields)
    return e.dataTransfer?.getData('text/plain') || e.data || '';
  if (t === 'insertLineBreak' || t === 'insertParagraph') return '\n';
  return t.startsWith('insert') ? (e.data ?? '') : '';
}
