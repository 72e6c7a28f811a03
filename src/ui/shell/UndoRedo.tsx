import { redo, undo } from '../controller';
import { useHistory } from '../history';
import { useT } from '../hooks/useT';

/** Undo/redo of scenario edits (also Ctrl+Z / Ctrl+Shift+Z). */
export function UndoRedo() {
  const t = useT();
  const canUndo = useHistory((s) => s.undo.length > 0);
  const canRedo = useHistory((s) => s.redo.length > 0);
  return (
    <span className="undo-redo" role="group" aria-label={t('history.label')}>
      <button
        type="button"
        className="btn btn--small"
        data-testid="undo"
        disabled={!canUndo}
        title={t('history.undoKey')}
        onClick={() => void undo()}
      >
        {t('history.undo')}
      </button>
      <button
        type="button"
        className="btn btn--small"
        data-testid="redo"
        disabled={!canRedo}
        title={t('history.redoKey')}
        onClick={() => void redo()}
      >
        {t('history.redo')}
      </button>
    </span>
  );
}
