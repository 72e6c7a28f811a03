import { lazy, memo, Suspense, useState } from 'react';
import { loadScenario, resetToOrigin } from '../controller';
import { useT } from '../hooks/useT';
import { usePick } from '../hooks/usePick';
import type { MessageKey } from '../i18n';
import { getPath, setPath } from '../../engine/scenario/edit';
import { useLearn, usePlayground } from '../store';
import { RedissonVersionPicker } from './RedissonVersionPicker';
import { syntaxProblem } from './json-highlight';

const JsonEditor = lazy(() => import('./JsonEditor'));

interface FieldDef {
  path: string[];
  label: MessageKey;
  kind: 'int' | 'text';
  /** a number as it is, or a word in the page's language */
  placeholder: string | { key: MessageKey };
}

const FIELDS: FieldDef[] = [
  { path: ['seed'], label: 'editor.seed', kind: 'int', placeholder: '1' },
  { path: ['until'], label: 'editor.until', kind: 'int', placeholder: { key: 'editor.auto' } },
  { path: ['network', 'latencyMs'], label: 'editor.latency', kind: 'int', placeholder: '1' },
  { path: ['redisson', 'lockWatchdogTimeout'], label: 'editor.watchdog', kind: 'int', placeholder: '30000' },
];

/** One field of the form: it renders again when its own value changes, not for every edit. */
const FormField = memo(function FormField({ def }: { def: FieldDef }) {
  const t = useT();
  const current = usePlayground((s) => getPath(s.scenario, def.path));
  const shown = current === undefined ? '' : String(current);
  // Local text while typing; reset whenever the scenario's value changes underneath.
  const [draft, setDraft] = useState({ base: shown, text: shown });
  if (draft.base !== shown) setDraft({ base: shown, text: shown });
  const text = draft.text;
  const setText = (v: string) => setDraft({ base: shown, text: v });
  const commit = () => {
    const raw = text.trim();
    const value = raw === '' ? undefined : def.kind === 'int' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
    if (value === current) return;
    const scenario = usePlayground.getState().scenario;
    void loadScenario(setPath(scenario ?? {}, def.path, value), { keepTime: true, onInvalid: 'issues' });
  };
  const id = `f-${def.path.join('-')}`;
  return (
    <div className="form__field">
      <label htmlFor={id}>{t(def.label)}</label>
      <input
        id={id}
        value={text}
        inputMode={def.kind === 'int' ? 'numeric' : 'text'}
        list={def.kind === 'text' ? 'versions' : undefined}
        placeholder={typeof def.placeholder === 'string' ? def.placeholder : t(def.placeholder.key)}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
    </div>
  );
});

/** Forms for the common fields and, on demand, the full JSON in its editor (JsonEditor.tsx). */
export function EditorPanel() {
  const t = useT();
  const { scenario, issues, builtinId, lang } = usePick(
    usePlayground,
    'scenario',
    'issues',
    'builtinId',
    'lang',
  );
  const origin = usePlayground((s) => s.builtins.find((b) => b.id === s.originId));
  // A lesson step's own scenario comes from no built-in: its task box offers "back to the step's scenario".
  const inLesson = useLearn((s) => s.lessonId !== null);
  const originTitle = origin && ((lang === 'zh' && origin.titleZh) || origin.title);
  const [showJson, setShowJson] = useState(false);
  const [revealSeq, setRevealSeq] = useState(0);
  const [draft, setDraft] = useState<{ base: unknown; text: string }>({ base: undefined, text: '' });
  const [parseError, setParseError] = useState<{ line: number; col: number; msg: string } | null>(null);
  // The JSON text follows the scenario whenever the scenario changes (a run, a pick, a drag).
  if (draft.base !== scenario) {
    setDraft({ base: scenario, text: scenario === null ? '' : JSON.stringify(scenario, null, 2) });
    if (parseError) setParseError(null);
  }
  const text = draft.text;
  const setText = (v: string) => setDraft({ base: scenario, text: v });

  const apply = () => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      // where it is, as a line and column: the engine's message may name no position (V8's newer ones)
      const at = syntaxProblem(text)?.from ?? 0;
      const before = text.slice(0, at).split('\n');
      setParseError({
        line: before.length,
        col: before[before.length - 1].length + 1,
        msg: e instanceof Error ? e.message : String(e),
      });
      setRevealSeq((n) => n + 1);
      return;
    }
    setParseError(null);
    void loadScenario(json, { keepTime: true, onInvalid: 'issues' });
  };

  return (
    <section className="panel editor" aria-labelledby="ed-h">
      <h3 id="ed-h">{t('editor.title')}</h3>
      <div className="form">
        {FIELDS.map((f) => (
          <FormField key={f.path.join('.')} def={f} />
        ))}
        <RedissonVersionPicker />
      </div>
      <div className="editor__bar">
        <button type="button" className="btn" aria-expanded={showJson} onClick={() => setShowJson(!showJson)}>
          {showJson ? t('editor.hideJson') : t('editor.showJson')}
        </button>
        {showJson && (
          <button type="button" className="btn btn--primary" onClick={apply}>
            {t('editor.apply')}
          </button>
        )}
        {builtinId === null && (origin !== undefined || !inLesson) && (
          <button type="button" className="btn" data-testid="reset" onClick={() => void resetToOrigin()}>
            {originTitle ? t('editor.resetTo', { title: originTitle }) : t('editor.reset')}
          </button>
        )}
      </div>
      {(issues.length > 0 || parseError) && (
        <div className="issues" role="alert">
          {parseError ? (
            <p>{t('editor.invalidJson', parseError)}</p>
          ) : (
            <>
              <p>{t('editor.issues', { n: issues.length })}</p>
              <ul>
                {issues.slice(0, 20).map((iss, i) => (
                  <li key={i}>
                    <code>{iss.path || '(root)'}</code>: {iss.message}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      {showJson && (
        <Suspense fallback={<p className="muted">{t('editor.loading')}</p>}>
          <JsonEditor
            value={text}
            issues={issues}
            onChange={setText}
            onApply={apply}
            label={t('editor.json')}
            revealSeq={revealSeq}
          />
        </Suspense>
      )}
    </section>
  );
}
