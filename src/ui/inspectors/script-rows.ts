/**
 * What the script view lists: a Redisson script as its Java source writes it (one string literal
 * a line, indented by its Lua blocks) with the teaching notes above the lines they explain; any
 * other script (an edited one, the naive lock's) as its own lines, comments translated in place.
 * Line numbers are the script's lines, the ones a verbose trace reports; notes have none.
 */
import type { Lang } from '../i18n';
import { scriptLines, zhComment } from './lua-comments';
import type { ScriptNote } from './script-notes';

/** The parts of a Redisson script the view needs (engine/redisson/scripts/family.ts). */
export interface LaidOutScript {
  readonly id: string;
  readonly since: string;
  readonly lines: readonly string[];
}

/** script-notes.ts's table (loaded with the texts) */
export type NoteTable = Readonly<Record<string, readonly ScriptNote[]>>;

export interface ScriptRow {
  /** the script's line number; null for a note */
  readonly no: number | null;
  readonly text: string;
  /** the English line of a translated note or comment (shown on hover) */
  readonly original?: string;
}

const OPENS = /\b(then|do|function|repeat)\b/g;
const CLOSES = /\b(end|until|elseif)\b/g;
const DEDENTS = /^(end|else|elseif|until)\b/;
/** a condition continued from the line before */
const CONTINUES = /^(or|and)\b/;

/** Each literal trimmed and indented by the Lua blocks open before it (display only). */
export function indentLua(lines: readonly string[]): string[] {
  let depth = 0;
  return lines.map((raw) => {
    const line = raw.trim();
    const code = line.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
    const shown = Math.max(0, depth - (DEDENTS.test(code) ? 1 : 0) + (CONTINUES.test(code) ? 1 : 0));
    depth = Math.max(0, depth + (code.match(OPENS)?.length ?? 0) - (code.match(CLOSES)?.length ?? 0));
    return line === '' ? '' : '    '.repeat(shown) + line;
  });
}

/** The notes of this variant: `family@since`, else the family's. */
function notesOf(script: LaidOutScript, notes: NoteTable) {
  return notes[`${script.id}@${script.since}`] ?? notes[script.id] ?? [];
}

/** Where each note goes: the index of the line it sits above (-1: none found, not shown). */
export function placeNotes(script: LaidOutScript, notes: NoteTable): { at: number; en: string }[] {
  let from = 0;
  return notesOf(script, notes).map(([anchor, en]) => {
    if (anchor === null) return { at: 0, en };
    const i = script.lines.findIndex((l, k) => k >= from && l.includes(anchor));
    if (i >= 0) from = i + 1;
    return { at: i, en };
  });
}

/**
 * A note's rows: its lines were broken for a source file's width, so a line that goes on in lower
 * case joins the one before (the panel wraps them), while KEYS / ARGV / Returns lines stay apart.
 * The 中文 has a line for each English one and is joined the same way.
 */
function noteRows(en: string, lang: Lang): ScriptRow[] {
  const enLines = en.split('\n');
  const groups: number[][] = [];
  enLines.forEach((l, i) => {
    if (i > 0 && /^[a-z("'`<]/.test(l)) groups[groups.length - 1].push(i);
    else groups.push([i]);
  });
  const zh = lang === 'zh' ? zhComment(en) : undefined;
  const english = (g: number[]) => g.map((i) => enLines[i]).join(' ');
  if (!zh) return groups.map((g) => ({ no: null, text: `-- ${english(g)}` }));
  return groups.map((g) => ({
    no: null,
    text: `-- ${g.map((i) => zh[i] ?? '').join('')}`,
    original: `-- ${english(g)}`,
  }));
}

export function scriptRows(
  text: string,
  script: { script: LaidOutScript; notes: NoteTable } | undefined,
  lang: Lang,
): ScriptRow[] {
  if (!script) return scriptLines(text, lang).map((l, i) => ({ no: i + 1, ...l }));
  const notes = placeNotes(script.script, script.notes);
  const shown = indentLua(script.script.lines);
  const rows: ScriptRow[] = [];
  shown.forEach((line, i) => {
    for (const n of notes) if (n.at === i) rows.push(...noteRows(n.en, lang));
    rows.push({ no: i + 1, text: line });
  });
  return rows;
}
