/**
 * The playground's main view: the timeline, the topology or both side by side (stacked on narrow
 * screens), or the compare panel while a comparison is open.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useViews } from './views';
import './views.css';

// Neither is on the first screen (the timeline is): they load when first shown.
const ComparePanel = lazy(() => import('../compare/ComparePanel').then((m) => ({ default: m.ComparePanel })));
const TopologyPanel = lazy(() => import('./TopologyPanel').then((m) => ({ default: m.TopologyPanel })));

export function Views({ timeline }: { timeline: ReactNode }) {
  const mode = useViews((s) => s.mode);
  const comparing = useViews((s) => s.compareId !== null);
  if (comparing)
    return (
      <Suspense fallback={null}>
        <ComparePanel />
      </Suspense>
    );
  return (
    <div className={`views views--${mode}`}>
      {mode !== 'topology' && timeline}
      {mode !== 'timeline' && (
        <Suspense fallback={null}>
          <TopologyPanel />
        </Suspense>
      )}
    </div>
  );
}
