import { useEffect } from 'react';
import { jumpLockEvent, setCursor, stepCursor, usePlayground } from '../store';
import { togglePlay } from './usePlayback';

function typingInto(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return (el as HTMLInputElement).type !== 'range';
  return false;
}

/** Space, ←/→, shift+←/→, Home/End, anywhere on the page except while typing. */
export function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typingInto(e.target)) return;
      const tag = (e.target as HTMLElement | null)?.tagName;
      switch (e.key) {
        case ' ':
          if (tag === 'BUTTON' || tag === 'A') return;
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
          usePlayground.setState({ playing: false });
          setCursor(-1);
          break;
        case 'End':
          usePlayground.setState({ playing: false });
          setCursor(Number.MAX_SAFE_INTEGER);
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
