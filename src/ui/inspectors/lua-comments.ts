/**
 * 中文 for comments (D27): the notes over Redisson's scripts (script-notes.ts) and the comments in
 * scripts that have their own (the naive lock's, a learner's edit). The text Redis runs stays as it
 * is (its SHA1 is the EVALSHA id, and the trace shows it): only the script view swaps each comment
 * block for its translation, line for line, so the line numbers and the current-line highlight
 * still match the script. A block not listed (an edited script) keeps its English.
 */
import { luaCommentsZh, type Lang } from '../i18n';

const COMMENT = /^(\s*--\s?)(.*)$/;

/** A script's comment blocks: the indexes of their lines and their text, without "-- ". */
export function commentBlocks(text: string): { lines: number[]; text: string }[] {
  const blocks: { lines: number[]; text: string[] }[] = [];
  let open: { lines: number[]; text: string[] } | null = null;
  text.split('\n').forEach((line, i) => {
    const m = COMMENT.exec(line);
    if (!m) return void (open = null);
    if (!open) blocks.push((open = { lines: [], text: [] }));
    open.lines.push(i);
    open.text.push(m[2]);
  });
  return blocks.map((b) => ({ lines: b.lines, text: b.text.join('\n') }));
}

/** The 中文 of a comment block, one line per English line, or undefined when it has none. */
export function zhComment(block: string): readonly string[] | undefined {
  return luaCommentsZh()?.get(block);
}

/**
 * The script's lines as the viewer reads them: in 中文 each known comment block translated in
 * place, with the English line on hover (`original`); code lines as they are.
 */
export function scriptLines(text: string, lang: Lang): { text: string; original?: string }[] {
  const lines = text.split('\n').map((l) => ({ text: l }) as { text: string; original?: string });
  if (lang !== 'zh') return lines;
  for (const b of commentBlocks(text)) {
    const zh = zhComment(b.text);
    if (zh?.length !== b.lines.length) continue;
    b.lines.forEach((at, j) => {
      const prefix = COMMENT.exec(lines[at].text)?.[1] ?? '-- ';
      lines[at] = { text: `${prefix}${zh[j]}`, original: lines[at].text };
    });
  }
  return lines;
}
