import { Fragment, type ReactNode } from 'react';
import { resolveLessonRefs } from '../../lessons/refs';

/**
 * The little markdown lesson text uses: paragraphs, `code` and **bold**, and `{lesson:<id>}` for
 * another lesson's number; no HTML is ever parsed.
 */
export function inline(raw: string): ReactNode[] {
  // `{lesson:<id>}` is that lesson's current number in the course (src/lessons/refs.ts)
  const text = resolveLessonRefs(raw);
  const out: ReactNode[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(m[1] !== undefined ? <code key={m.index}>{m[1]}</code> : <strong key={m.index}>{m[2]}</strong>);
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ text, className, testId }: { text: string; className?: string; testId?: string }) {
  return (
    <div className={className} data-testid={testId}>
      {text.split(/\n\s*\n/).map((p, i) => (
        <p key={i}>
          {p.split('\n').map((line, j) => (
            <Fragment key={j}>
              {j > 0 && <br />}
              {inline(line)}
            </Fragment>
          ))}
        </p>
      ))}
    </div>
  );
}
