import { useEffect, useRef, useState } from 'react';
import { create } from 'zustand';
import { useT } from '../hooks/useT';
import { GLOSSARY, linkTerms, termById, type Linked, type TermId } from '../i18n/glossary';
import type { GLOSSARY_TEXT } from '../i18n/glossary-text';
import { usePlayground } from '../store';
import './glossary.css';

interface GlossaryState {
  open: boolean;
  /** the entry to show first */
  term: TermId | null;
}

const useGlossary = create<GlossaryState>()(() => ({ open: false, term: null }));

export function openGlossary(term: TermId | null = null): void {
  useGlossary.setState({ open: true, term });
}

/** The glossary as a modal dialog: Escape or Close returns focus to what opened it. */
export function Glossary() {
  const t = useT();
  const lang = usePlayground((s) => s.lang);
  const { open, term } = useGlossary();
  const ref = useRef<HTMLDialogElement>(null);
  // the entries' text loads the first time the glossary opens (the first screen needs none of it)
  const [texts, setTexts] = useState<typeof GLOSSARY_TEXT | null>(null);
  useEffect(() => {
    if (open && texts === null) void import('../i18n/glossary-text').then((m) => setTexts(m.GLOSSARY_TEXT));
  }, [open, texts]);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
    if (open) {
      // runs again when the entries' text arrives: the asked-for entry has moved, and without one
      // the list starts at its top (scrolling the sticky title into view would shift it)
      if (term) {
        const target = dialog.querySelector<HTMLElement>(`#glossary-${term}`);
        target?.scrollIntoView({ block: 'start' });
        target?.focus({ preventScroll: true });
      } else {
        dialog.scrollTop = 0;
        dialog.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
      }
    }
  }, [open, term, texts]);
  return (
    <dialog
      ref={ref}
      className="glossary"
      data-testid="glossary"
      aria-labelledby="glossary-title"
      onClose={() => useGlossary.setState({ open: false })}
    >
      <div className="glossary__head">
        <h2 id="glossary-title" tabIndex={-1}>
          {t('glossary.title')}
        </h2>
        <button type="button" className="btn" onClick={() => useGlossary.setState({ open: false })}>
          {t('glossary.close')}
        </button>
      </div>
      <dl className="glossary__list">
        {GLOSSARY.map((g) => (
          <div
            key={g.id}
            className={g.id === term ? 'glossary__entry glossary__entry--on' : 'glossary__entry'}
          >
            <dt id={`glossary-${g.id}`} tabIndex={-1}>
              {g.title[lang]}
            </dt>
            <dd>{texts?.[g.id][lang] ?? '…'}</dd>
          </div>
        ))}
      </dl>
    </dialog>
  );
}

/** Text runs with their glossary terms as buttons that open the entry. */
export function LinkedText({ parts }: { parts: readonly Linked[] }) {
  const t = useT();
  const lang = usePlayground((s) => s.lang);
  return (
    <>
      {parts.map((p, i) =>
        p.term ? (
          <button
            key={i}
            type="button"
            className="term"
            data-term={p.term}
            title={t('glossary.termLink', { term: termById(p.term).title[lang] })}
            onClick={() => openGlossary(p.term)}
          >
            {p.text}
          </button>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

/**
 * Running text with the first mention of each glossary term linked; `code` in backticks (the
 * built-ins' descriptions and incident cards write identifiers so) is set as code, not as quotes.
 */
export function GlossaryText({ text }: { text: string }) {
  const lang = usePlayground((s) => s.lang);
  const seen = new Set<TermId>();
  return (
    <>
      {text
        .split(/(`[^`]+`)/)
        .map((part, i) =>
          part.length > 2 && part.startsWith('`') && part.endsWith('`') ? (
            <code key={i}>{part.slice(1, -1)}</code>
          ) : (
            <LinkedText key={i} parts={linkTerms(part, lang, seen)} />
          ),
        )}
    </>
  );
}
