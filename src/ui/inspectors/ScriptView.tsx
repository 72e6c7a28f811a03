import { useEffect, useMemo, useRef, useState } from 'react';
import { sha1hex } from '../../engine/redis/sha1';
import { METHOD_BY_SHA1 } from '../../engine/redisson/scripts/methods';
import { replyText as cliText } from '../reply-view';
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { scriptRows } from './script-rows';
import { findScriptContext } from './script-context';

function replyText(r: unknown): string {
  if (r === undefined) return '…';
  return cliText(r);
}

type Registry = typeof import('./redisson-scripts');
let registryLoad: Promise<Registry> | null = null;

/**
 * Redisson's script texts with their Java lines, loaded the first time a Redisson script is shown
 * (the page's first screen does without them).
 */
function useRedissonScript(text: string | null) {
  const sha = useMemo(() => (text === null ? null : sha1hex(text)), [text]);
  const method = sha === null ? undefined : METHOD_BY_SHA1[sha];
  const [registry, setRegistry] = useState<Registry | null>(null);
  useEffect(() => {
    if (method === undefined || registry !== null) return;
    let live = true;
    registryLoad ??= import('./redisson-scripts');
    void registryLoad.then((r) => live && setRegistry(r));
    return () => {
      live = false;
    };
  }, [method, registry]);
  const script = useMemo(() => {
    const found = text !== null && registry !== null ? registry.redissonScriptOf(text) : undefined;
    return found && registry ? { script: found, notes: registry.SCRIPT_NOTES } : undefined;
  }, [text, registry]);
  return { method, sha, script };
}

/** The Lua of the script at the cursor, the current line highlighted, each redis.call and its reply. */
export function ScriptView() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  const cursor = usePlayground((s) => s.cursor);
  const predict = usePlayground((s) => s.predict);
  const lang = usePlayground((s) => s.lang);
  // (before the first event the events are not read, nor at the cursor a run opened at: they may
  // not be parsed yet, and the worker found the same there: run-outline.ts)
  const ctx = useMemo(() => {
    if (!run || cursor < 0) return null;
    const opening = run.outline?.opening;
    return opening?.index === cursor ? opening.script : findScriptContext(run.trace.events, cursor);
  }, [run, cursor]);
  const { method, sha, script } = useRedissonScript(ctx?.text ?? null);
  const pre = useRef<HTMLPreElement>(null);
  // keep the running line in sight inside the listing (notes make it longer than the panel)
  useEffect(() => {
    const box = pre.current;
    const cur = box?.querySelector<HTMLElement>('.lua__line--current');
    if (!box || !cur) return;
    const top = cur.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
  }, [ctx?.line, ctx?.text, script, lang]);
  return (
    <section className="panel" data-testid="script-view" aria-labelledby="sv-h">
      <h3 id="sv-h">
        {t('inspect.script')}
        {ctx && (
          <span className="muted">
            {' '}
            {ctx.actor ?? ''} @ {ctx.node ?? ''}
          </span>
        )}
      </h3>
      {!ctx ? (
        <p className="muted">{t('inspect.noScript')}</p>
      ) : (
        <>
          {ctx.textOnly && !run?.verbose && <p className="muted">{t('inspect.scriptNeedsVerbose')}</p>}
          {method !== undefined && sha !== null && (
            <p className="muted lua__about">{t('inspect.scriptJava', { method, sha: sha.slice(0, 8) })}</p>
          )}
          <pre className="lua" aria-label="Lua" ref={pre}>
            {scriptRows(ctx.text ?? `EVALSHA ${ctx.sha ?? ''}`, script, lang).map((l, i) =>
              l.no === null ? (
                <div key={i} className="lua__line lua__line--note">
                  <span className="lua__no" aria-hidden="true" />
                  <code title={l.original}>{l.text}</code>
                </div>
              ) : (
                <div
                  key={i}
                  className={`lua__line${ctx.line === l.no ? ' lua__line--current' : ''}`}
                  aria-current={ctx.line === l.no ? 'step' : undefined}
                >
                  <span className="lua__no">{l.no}</span>
                  <code title={l.original}>{l.text || ' '}</code>
                </div>
              ),
            )}
          </pre>
          {ctx.calls.length > 0 && (
            <ol className="calls">
              {/* predict mode: the calls the script has not made yet stay hidden */}
              {ctx.calls
                .filter((c) => !predict || c.reply !== undefined)
                .map((c, i) => (
                  <li key={i} className={c.current ? 'calls__item calls__item--current' : 'calls__item'}>
                    <code>
                      redis.call(
                      {c.argv.map((a) => `'${a.length > 40 ? `${a.slice(0, 37)}…` : a}'`).join(', ')})
                    </code>
                    <span className="calls__reply">→ {replyText(c.reply)}</span>
                  </li>
                ))}
            </ol>
          )}
          {ctx.reply !== undefined && (
            <p className="calls__result">
              {t('inspect.scriptReply')}: <code>{replyText(ctx.reply)}</code>
            </p>
          )}
        </>
      )}
    </section>
  );
}
