/** The topology of the current run at the cursor, with fault menus; and the view switch. */
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { TopologyView } from './TopologyView';
import { useViews, type ViewMode } from './views';

export function TopologyPanel() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  const cursor = usePlayground((s) => s.cursor);
  if (!run) return null;
  const ev = run.trace.events[cursor];
  return (
    <section className="topo-panel" aria-label={t('topo.title')}>
      <div className="topo-panel__head">
        <h2>{t('topo.title')}</h2>
        <span className="topo-panel__time">
          {ev ? `${t('unit.ms', { n: ev.t })} · #${cursor}` : t('inspect.noEvent')}
        </span>
      </div>
      <TopologyView run={run} index={cursor} menus />
    </section>
  );
}

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
