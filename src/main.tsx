// First: the engine worker is what the first screen waits for longest (start-engine.ts says why).
import './ui/start-engine';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { boot, startLang } from './ui/controller';
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

// The first scenario is asked for as soon as the worker answers, not after the first render: the
// worker runs it while React renders the page.
void boot();

void startLang().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
