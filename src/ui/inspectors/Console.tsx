import { useRef, useState } from 'react';
import { loadScenario } from '../controller';
import { engineClient } from '../engine-client';
import { useT } from '../hooks/useT';
import { addRedisAction } from '../../engine/scenario/edit';
import { clockAt, setCursor, usePlayground } from '../store';

interface Line {
  id: number;
  prompt?: string;
  text: string;
  kind: 'in' | 'out' | 'note' | 'error';
}

let lineSeq = 1;

/**
 * A redis-cli look-alike over the node chosen below, at the cursor: reads answer from that
 * moment's keyspace; writes become a `redis` action in the scenario at the cursor time.
 */
export function Console() {
  const t = useT();
  const model = usePlayground((s) => s.run?.model);
  const nodes = model ? model.nodes.map((n) => n.id) : [];
  const selected = usePlayground((s) => s.selectedNode);
  const [lines, setLines] = useState<Line[]>([]);
  const [value, setValue] = useState('');
  const outRef = useRef<HTMLDivElement>(null);
  const history = useRef<string[]>([]);
  const histPos = useRef(0);

  const append = (...ls: Omit<Line, 'id'>[]) => {
    setLines((prev) => [...prev.slice(-200), ...ls.map((l) => ({ ...l, id: lineSeq++ }))]);
    requestAnimationFrame(() => outRef.current?.scrollTo({ top: outRef.current.scrollHeight }));
  };

  const submit = async () => {
    const line = value.trim();
    setValue('');
    if (!line) return;
    history.current.push(line);
    histPos.current = history.current.length;
    const s = usePlayground.getState();
    const prompt = `${selected}@${clockAt(s)}${t('unit.msSuffix')}>`;
    append({ kind: 'in', prompt, text: line });
    if (!s.run) return;
    try {
      const ans = await engineClient.console(s.run.runId, s.cursor, selected, line);
      if (ans.kind === 'read') append({ kind: 'out', text: ans.text });
      else if (ans.kind === 'error') append({ kind: 'error', text: ans.text });
      else if (ans.kind === 'refused')
        append({ kind: 'error', text: t('console.refused', { cmd: ans.command }) });
      else if (ans.kind === 'down') append({ kind: 'error', text: t('console.down') });
      else if (ans.kind === 'unavailable') append({ kind: 'note', text: t('console.unavailable') });
      else {
        const at = clockAt(s);
        const doc = addRedisAction(s.scenario ?? {}, ans.argv, at);
        const client = doc.clients?.[doc.clients.length - 1]?.id ?? 'console';
        if (!(await loadScenario(doc, { keepTime: true }))) return;
        // The write runs a moment after the cursor's time (a round trip): move past its reply, so
        // reads typed here see it.
        const events = usePlayground.getState().run?.trace.events ?? [];
        const i = events.findIndex((e) => e.kind === 'cmd' && String(e.actor).startsWith(`${client}:`));
        if (i >= 0) {
          usePlayground.setState({ playing: false });
          setCursor(i);
          append({ kind: 'note', text: t('console.writeAt', { t: at, client, n: i + 1 }) });
        } else append({ kind: 'note', text: t('console.writeAdded', { t: at }) });
      }
    } catch (e) {
      append({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <section className="panel console" data-testid="console" aria-labelledby="co-h">
      <h3 id="co-h">
        {t('inspect.console')}
        <label className="console__node">
          <span>{t('console.node')}</span>
          <select value={selected} onChange={(e) => usePlayground.setState({ selectedNode: e.target.value })}>
            {nodes.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </h3>
      <p className="muted console__hint">{t('console.hint')}</p>
      <div className="console__out" ref={outRef} aria-live="polite">
        {lines.map((l) => (
          <div key={l.id} className={`console__line console__line--${l.kind}`}>
            {l.prompt && <span className="console__prompt">{l.prompt} </span>}
            {l.text}
          </div>
        ))}
      </div>
      <form
        className="console__form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <span className="console__prompt" aria-hidden="true">
          {selected}&gt;
        </span>
        <input
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            const h = history.current;
            if (e.key === 'ArrowUp' && h.length) {
              histPos.current = Math.max(0, histPos.current - 1);
              setValue(h[histPos.current]);
              e.preventDefault();
            } else if (e.key === 'ArrowDown' && h.length) {
              histPos.current = Math.min(h.length, histPos.current + 1);
              setValue(h[histPos.current] ?? '');
              e.preventDefault();
            }
          }}
          placeholder={t('console.placeholder')}
          aria-label={t('console.input')}
          spellCheck={false}
          autoComplete="off"
        />
      </form>
    </section>
  );
}
