/** The topology of the current run at the cursor, with fault menus. */
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { TopologyView } from './TopologyView';

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
