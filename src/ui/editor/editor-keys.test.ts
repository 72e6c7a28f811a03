import { describe, expect, it } from 'vitest';
import { insertedText, keyCommand } from './editor-keys';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});

describe('editor keys', () => {
  it('names nothing without Ctrl or Cmd', () => {
    for (const k of ['Enter', 'z', 'a', 'Home', 'End']) expect(keyCommand(key(k), 'Linux x86_64')).toBeNull();
  });

  it('names apply, undo, redo and select-all', () => {
    expect(keyCommand(key('Enter', { metaKey: true }), 'MacIntel')).toBe('apply');
    expect(keyCommand(key('z', { ctrlKey: true }), 'Win32')).toBe('undo');
    expect(keyCommand(key('Z', { ctrlKey: true, shiftKey: true }), 'Win32')).toBe('redo');
    expect(keyCommand(key('y', { ctrlKey: true }), 'Win32')).toBe('redo');
    expect(keyCommand(key('y', { metaKey: true }), 'MacIntel')).toBeNull();
    expect(keyCommand(key('A', { ctrlKey: true }), 'Win32')).toBe('selectAll');
  });

  it("names the document's ends", () => {
    expect(keyCommand(key('Home', { ctrlKey: true }), 'Win32')).toBe('start');
    expect(keyCommand(key('End', { ctrlKey: true, shiftKey: true }), 'Win32')).toBe('end');
    expect(keyCommand(key('ArrowDown', { metaKey: true }), 'MacIntel')).toBe('end');
    expect(keyCommand(key('ArrowDown', { metaKey: true }), 'Linux x86_64')).toBeNull();
  });

  it('reads what an input event puts in', () => {
    const ev = (inputType: string, data: string | null = null) => ({ inputType, data, dataTransfer: null });
    expect(insertedText(ev('insertText', 'x'))).toBe('x');
    expect(insertedText(ev('insertFromPaste', 'pasted'))).toBe('pasted');
    expect(insertedText(ev('insertLineBreak'))).toBe('\n');
    expect(insertedText(ev('deleteContentBackward'))).toBe('');
  });
});
