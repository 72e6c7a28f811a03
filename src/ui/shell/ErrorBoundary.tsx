import { Component, type ReactNode } from 'react';
import { translate } from '../i18n';
import { usePlayground } from '../store';

interface State {
  error: Error | null;
}

/** Last line of defence: a render error shows a message and a way back, never a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const lang = usePlayground.getState().lang;
    return (
      <div className="error-panel error-panel--fatal" data-testid="error-panel" role="alert">
        <strong>{translate(lang, 'error.title')}</strong>
        <p>{translate(lang, 'error.crash', { msg: this.state.error.message })}</p>
        <button
          type="button"
          className="btn"
          onClick={() => {
            // The saved scenario may be what broke the page: start from the default.
            try {
              window.localStorage.removeItem('lockscope.scenario');
            } catch {
              // Storage unavailable: nothing saved to forget.
            }
            window.location.hash = '';
            window.location.reload();
          }}
        >
          {translate(lang, 'error.reload')}
        </button>
      </div>
    );
  }
}
