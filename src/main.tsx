import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { startLang } from './ui/controller';
import './ui/app.css';
import { pushError } from './ui/store';

// A stray rejection is reported in the error panel rather than left uncaught.
window.addEventListener('unhandledrejection', (e) => {
  e.preventDefault();
  pushError({
    key: 'error.crash',
    params: { msg: e.reason instanceof Error ? e.reason.message : String(e.reason) },
  });
});

void startLang().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
