import { Fragment, type ReactNode } from 'react';

/**
 * The little markdown lesson text uses: paragraphs, `code`, **bold**, [links](#scenario=<id>)
 * within the page (`#scenario=` / `#lesson=` only) and [a source](https://…) (http and https
 * only, opened in a new tab); no other target, and no HTML, is ever parsed.
 */
export function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re =
    /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\((#(?:scenario|lesson)=[\w:.&=-]+)\)|\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(<code key={m.index}>{m[1]}</code>);
    else if (m[2] !== undefined) out.push(<strong key={m.index}>{m[2]}</strong>);
    else if (m[4] !== undefined)
      out.push(
        <a key={m.index} href={m[4]}>
          {m[3]}
        </a>,
      );
    else
      out.push(
        <a key={m.index} href={m[6]} target="_blank" rel="noreferrer">
          {m[5]}
        </a>,
      );
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
