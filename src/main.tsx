import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { startLang } from './ui/controller';
import './ui/app.css';
import { engineClient } from './ui/engine-client';
import { pushError } from './ui/store';

// The engine worker is what the first screen waits for longest: start it before anything else
// (boot() picks up the same answer).
engineClient.init().catch(() => {
  // boot() asks again and reports the failure.
});

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
