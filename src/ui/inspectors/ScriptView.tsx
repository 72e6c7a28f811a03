import { useMemo } from 'react';
import { replyText as cliText } from '../reply-view';
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { scriptLines } from './lua-comments';
import { findScriptContext } from './script-context';

function replyText(r: unknown): string {
  if (r === undefined) return '…';
  return cliText(r);
}

/** The Lua of the script at the cursor, the current line highlighted, each redis.call and its reply. */
export function ScriptView() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  const cursor = usePlayground((s) => s.cursor);
  const predict = usePlayground((s) => s.predict);
  const lang = usePlayground((s) => s.lang);
  const ctx = useMemo(() => (run ? findScriptContext(run.trace.events, cursor) : null), [run, cursor]);
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
          <pre className="lua" aria-label="Lua">
            {scriptLines(ctx.text ?? `EVALSHA ${ctx.sha ?? ''}`, lang).map((l, i) => (
              <div
                key={i}
                className={`lua__line${ctx.line === i + 1 ? ' lua__line--current' : ''}`}
                aria-current={ctx.line === i + 1 ? 'step' : undefined}
              >
                <span className="lua__no">{i + 1}</span>
                <code title={l.original}>{l.text || ' '}</code>
              </div>
            ))}
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
