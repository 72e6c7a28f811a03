import { redo, undo } from '../controller';
import { useHistory } from '../history';
import { useT } from '../hooks/useT';

const BUTTONS = [
  { dir: 'undo', run: undo, label: 'history.undo', key: 'history.undoKey' },
  { dir: 'redo', run: redo, label: 'history.redo', key: 'history.redoKey' },
] as const;

/** Undo/redo of scenario edits (also Ctrl+Z / Ctrl+Shift+Z). */
export function UndoRedo() {
  const t = useT();
  const canUndo = useHistory((s) => s.undo.length > 0);
  const canRedo = useHistory((s) => s.redo.length > 0);
  const enabled = { undo: canUndo, redo: canRedo };
  return (
    <span className="undo-redo" role="group" aria-label={t('history.label')}>
      {BUTTONS.map((b) => (
        <button
          key={b.dir}
          type="button"
          className="btn btn--small"
          data-testid={b.dir}
          disabled={!enabled[b.dir]}
          title={t(b.key)}
          onClick={() => void b.run()}
        >
          {t(b.label)}
        </button>
      ))}
    </span>
  );
}
