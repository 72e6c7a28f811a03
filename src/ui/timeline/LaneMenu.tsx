/**
 * The lane labels, each a button that opens the lane's menu of faults to add at the cursor's
 * time: crash or restart a node, pause or crash a client, cut either off from the rest. The
 * faults themselves are built by the engine's scenario edits.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { addFault, isolate } from '../../engine/scenario/edit';
import type { Fault } from '../../engine/scenario/schema';
import { loadScenario } from '../controller';
import { useT } from '../hooks/useT';
import { clockAt, usePlayground } from '../store';
import type { Layout } from './layout';
import type { LaneModel } from './model';

export const LABEL_W = 112;

const PAUSE_MS = 5000;

/** A node's role beside its name, only when the name does not already say it (a promoted replica). */
function NodeRole({ id, model }: { id: string; model: LaneModel }) {
  const lane = model.nodes.find((n) => n.id === id);
  const last = lane?.roles[lane.roles.length - 1]?.role ?? lane?.role;
  if (!last || id.startsWith(last)) return null;
  return <span className="lane-label__role">→ {last}</span>;
}

function addAndRerun(fault: Fault) {
  void loadScenario(addFault(usePlayground.getState().scenario ?? {}, fault), { keepTime: true });
}

function isolateAndRerun(endpoint: string, at: number) {
  const run = usePlayground.getState().run;
  if (run) addAndRerun(isolate(run.scenario, run.nodeIds, endpoint, at));
}

function NodeMenu({ id, model, close }: { id: string; model: LaneModel; close(): void }) {
  const t = useT();
  const at = clockAt(usePlayground.getState());
  const down = model.nodes.find((n) => n.id === id)?.down.some((d) => d.from <= at && at < d.to) ?? false;
  return (
    <>
      <button
        type="button"
        role="menuitem"
        onClick={() => {
          close();
          addAndRerun(down ? { at, kind: 'restart', node: id } : { at, kind: 'crash', node: id });
        }}
      >
        {t(down ? 'timeline.restartNode' : 'timeline.crashNode', { lane: id })}
      </button>
      <button
        type="button"
        role="menuitem"
        onClick={() => {
          close();
          isolateAndRerun(id, at);
        }}
      >
        {t('timeline.partitionLane', { lane: id })}
      </button>
    </>
  );
}

function ClientMenu({ client, close }: { client: string; close(): void }) {
  const t = useT();
  const item = (label: string, act: (at: number) => void) => (
    <button
      type="button"
      role="menuitem"
      onClick={() => {
        close();
        act(clockAt(usePlayground.getState()));
      }}
    >
      {label}
    </button>
  );
  return (
    <>
      {item(t('timeline.pauseClient', { lane: client }), (at) =>
        addAndRerun({ at, kind: 'pause', client, ms: PAUSE_MS }),
      )}
      {item(t('timeline.crashClient', { lane: client }), (at) => addAndRerun({ at, kind: 'crash', client }))}
      {item(t('timeline.partitionLane', { lane: client }), (at) => isolateAndRerun(client, at))}
    </>
  );
}

export const LaneLabels = memo(function LaneLabels({ layout, model }: { layout: Layout; model: LaneModel }) {
  const t = useT();
  const [open, setOpen] = useState<string | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // The menu closes on Escape or a click anywhere else.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!boxRef.current?.contains(e.target as Node)) setOpen(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(null);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const close = () => setOpen(null);
  return (
    <div className="timeline__labels" ref={boxRef} style={{ width: LABEL_W, height: layout.height }}>
      {layout.rows.map((r) =>
        r.id ? (
          <div key={r.id} className={`lane-label lane-label--${r.kind}`} style={{ top: r.y, height: r.h }}>
            <button
              type="button"
              className="lane-label__btn"
              aria-label={t('timeline.laneMenu', { lane: r.id })}
              aria-haspopup="menu"
              aria-expanded={open === r.id}
              onClick={() => setOpen(open === r.id ? null : r.id)}
            >
              {r.id}
              {r.kind === 'node' && <NodeRole id={r.id} model={model} />}
            </button>
            {open === r.id && (
              <div className="lane-menu" role="menu">
                {r.kind === 'node' ? (
                  <NodeMenu id={r.id} model={model} close={close} />
                ) : (
                  <ClientMenu client={r.id.split(':')[0]} close={close} />
                )}
              </div>
            )}
          </div>
        ) : null,
      )}
    </div>
  );
});
