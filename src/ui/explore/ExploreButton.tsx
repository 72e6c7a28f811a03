/** The Explore toggle in the transport bar; the panel it opens loads on first use. */
import { useT } from '../hooks/useT';
import { isSearching, openExplore, useExplore } from './store';

export function ExploreButton() {
  const t = useT();
  const open = useExplore((s) => s.open);
  const busy = useExplore(isSearching);
  return (
    <button
      type="button"
      className={`btn btn--small explore-open${busy ? ' is-busy' : ''}`}
      data-testid="explore-open"
      aria-expanded={open}
      aria-controls="explore-panel"
      title={t('explore.openTitle')}
      onClick={() => (open ? useExplore.setState({ open: false }) : openExplore())}
    >
      {t('explore.open')}
    </button>
  );
}
