/** The view switch (timeline, topology or both) and the compare toggle: on the first screen, so
 * apart from the panels they open, which load when first shown. */
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { useViews, type ViewMode } from './views';
import './views.css';

const MODES: { mode: ViewMode; key: 'topo.view.timeline' | 'topo.view.topology' | 'topo.view.both' }[] = [
  { mode: 'timeline', key: 'topo.view.timeline' },
  { mode: 'topology', key: 'topo.view.topology' },
  { mode: 'both', key: 'topo.view.both' },
];

/** Timeline, topology or both; and the compare panel's toggle. */
export function ViewSwitch() {
  const t = useT();
  const mode = useViews((s) => s.mode);
  const comparing = useViews((s) => s.compareId !== null);
  const builtinId = usePlayground((s) => s.builtinId);
  const originId = usePlayground((s) => s.originId);
  const builtins = usePlayground((s) => s.builtins);
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
        onClick={() =>
          useViews.setState(() => {
            if (comparing) return { compareId: null };
            // First pick: the scenario before the edits, else another built-in.
            const before = builtinId === null ? originId : null;
            const other = builtins.find((b) => b.id !== builtinId)?.id ?? null;
            return { compareId: before ?? other };
          })
        }
      >
        {t('compare.open')}
      </button>
    </div>
  );
}
