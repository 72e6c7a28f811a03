import { useEffect } from 'react';
import { redo, undo } from '../controller';
import { jumpLockEvent, setCursor, stepCursor, usePlayground } from '../store';
import { togglePlay } from './usePlayback';

function typingInto(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === 'TEXTAREA') return true;
  if (tag === 'INPUT') return (el as HTMLInputElement).type !== 'range';
  return false;
}

/**
 * Where Space keeps its own meaning: a menu item, a summary that opens a menu, a select (Space
 * opens it). Everywhere else it toggles play, also on a focused button: after clicking Step, Space
 * used to click Step again.
 */
function spaceIsOwn(el: HTMLElement | null): boolean {
  if (!el?.tagName) return false;
  if (el.tagName === 'SELECT' || el.tagName === 'SUMMARY') return true;
  return el.closest('[role="menu"], [role="menuitem"], details[open]') !== null;
}

/**
 * Space, ←/→, shift+←/→, Home/End, and Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y), anywhere on the page
 * except while typing. On a focused select only ↑/↓ are the select's: ←/→ step the cursor, so
 * right after a pick → steps instead of loading the next scenario.
 */
export function useKeyboard(): void {
  useEffect(() => {
    // A Space that toggled play from a focused button must not click it on keyup.
    let swallowSpaceUp = false;
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key === ' ' && swallowSpaceUp) {
        swallowSpaceUp = false;
        e.preventDefault();
      }
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || typingInto(e.target)) return;
      const el = e.target as HTMLElement | null;
      if (e.ctrlKey || e.metaKey) {
        const k = e.key.toLowerCase();
        if ((k === 'z' && e.shiftKey) || (k === 'y' && !e.shiftKey)) void redo();
        else if (k === 'z') void undo();
        else return;
        e.preventDefault();
        return;
      }
      switch (e.key) {
        case ' ':
          if (spaceIsOwn(el)) return;
          if (el?.tagName === 'BUTTON' || el?.tagName === 'A') swallowSpaceUp = true;
          togglePlay();
          break;
        case 'ArrowRight':
          if (e.shiftKey) jumpLockEvent(1);
          else stepCursor(1);
          break;
        case 'ArrowLeft':
          if (e.shiftKey) jumpLockEvent(-1);
          else stepCursor(-1);
          break;
        case 'Home':
          if (el?.tagName === 'SELECT') return;
          usePlayground.setState({ playing: false });
          setCursor(-1);
          break;
        case 'End':
          if (el?.tagName === 'SELECT') return;
          usePlayground.setState({ playing: false });
          setCursor(Number.MAX_SAFE_INTEGER);
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, []);
}
