/**
 * The playground's main view: the timeline, the topology or both side by side (stacked on narrow
 * screens), or the compare panel while a comparison is open.
 */
import type { ReactNode } from 'react';
import { ComparePanel } from '../compare/ComparePanel';
import { TopologyPanel } from './TopologyPanel';
import { useViews } from './views';

export function Views({ timeline }: { timeline: ReactNode }) {
  const mode = useViews((s) => s.mode);
  const comparing = useViews((s) => s.compareId !== null);
  if (comparing) return <ComparePanel />;
  return (
    <div className={`views views--${mode}`}>
      {mode !== 'topology' && timeline}
      {mode !== 'timeline' && <TopologyPanel />}
    </div>
  );
}
