/** The view switch (timeline, topology or both) and the compare toggle: on the first screen, so
 * apart from the panels they open, which load when first shown. */
import { ensureIncidents } from '../controller';
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { useViews, type ViewMode } from './views';
import './views.css';

const MODES: { mode: ViewMode; key: 'topo.view.timeline' | 'topo.view.topology' | 'topo.view.both' }[] = [
  { mode: 'timeline', key: 'topo.view.timeline' },
  { mode: 'topology', key: 'topo.view.topology' },
  { mode: 'both', key: 'topo.view.both' },
];

/**
 * Opens the comparison with the scenario before the edits, else another built-in; until the other
 * built-ins have arrived (the first screen has the default alone), it waits for them.
 */
async function toggleCompare(comparing: boolean): Promise<void> {
  if (comparing) return useViews.setState({ compareId: null });
  const pick = () => {
    const { builtinId, originId, builtins } = usePlayground.getState();
    const before = builtinId === null ? originId : null;
    return before ?? builtins.find((b) => b.id !== builtinId)?.id ?? null;
  };
  if (pick() === null) await ensureIncidents();
  useViews.setState({ compareId: pick() });
}

/** Timeline, topology or both; and the compare panel's toggle. */
export function ViewSwitch() {
  const t = useT();
  const mode = useViews((s) => s.mode);
  const comparing = useViews((s) => s.compareId !== null);
  return (
    <div className="views-bar">
      <div className="seg" role="group" aria-label={t('topo.view.label')} data-testid="view-switch">
        {MODES.map((m) => (
          <button
            key={m.mode}
            type="button"
            aria-pressed={mode === m.mode}
            data-testid={`view-${m.mode}`}
            onClick={() => useViews.setState({ mode: m.mode })}
          >
            {t(m.key)}
          </button>
        ))}
      </div>
      <button
        type="button"
        className="btn btn--small"
        aria-pressed={comparing}
        data-testid="compare-toggle"
        onClick={() => void toggleCompare(comparing)}
      >
        {t('compare.open')}
      </button>
    </div>
  );
}
