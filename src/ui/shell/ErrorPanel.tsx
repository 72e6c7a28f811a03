import { useT } from '../hooks/useT';
import { dismissError, usePlayground } from '../store';

/** What went wrong (a bad link, a refused scenario, a failed run), in words, with the page still usable. */
export function ErrorPanel() {
  const t = useT();
  const errors = usePlayground((s) => s.errors);
  if (errors.length === 0) return null;
  return (
    <div className="error-panel" data-testid="error-panel" role="alert">
      <strong>{t('error.title')}</strong>
      {errors.map((e) => (
        <div key={e.id} className="error-panel__item">
          <p>
            {t(e.key, {
              ...e.params,
              msg: e.detail ? t(e.detail.key, e.detail.params) : (e.params?.msg ?? ''),
            })}
          </p>
          {e.issues && e.issues.length > 0 && (
            <ul>
              {e.issues.slice(0, 8).map((iss, i) => (
                <li key={i}>
                  <code>{iss.path || '(root)'}</code>: {iss.message}
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="btn btn--small" onClick={() => dismissError(e.id)}>
            {t('error.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}
