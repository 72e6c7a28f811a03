/**
 * The conformance corpus: plain-text files of redis-cli lines (corpus/*.redis), fed unchanged to
 * the real `redis-cli` and to the simulator.
 *
 * Format, line by line:
 *   - blank lines and lines starting with `#` are comments;
 *   - `# pass: raw` anywhere in a file also runs that file through redis-cli's RAW formatter;
 *   - every other line is one entry, a command exactly as typed at the redis-cli prompt;
 *   - an entry may end with markers after `  # `, comma-separated, that loosen the comparison of
 *     that one entry only (see compare.ts): `tolerance: N` (integers may differ by up to N, for
 *     TTLs that count down on the real server but not on the virtual clock), `sort` (the reply
 *     is a set whose order real Redis does not define), `known: <id>` (a documented difference,
 *     see known_differences.ts).
 *   - `{{lua:NAME}}` expands to Redisson 4.7.0's script NAME (lock, unlock, renew, force_unlock;
 *     load_corpus.ts) as one quoted argument, `{{sha:NAME}}` to its SHA1, so the corpus runs the
 *     very texts Redisson's model (and Redisson) sends.
 */
import { createHash } from 'node:crypto';

export interface EntryMarkers {
  tolerance?: number;
  sort?: boolean;
  known?: string;
}

export interface CorpusEntry {
  /** `file:line`, for messages */
  readonly id: string;
  readonly line: number;
  /** the command line after expansion, as sent to both sides */
  readonly command: string;
  readonly markers: EntryMarkers;
}

export interface CorpusFile {
  readonly name: string;
  readonly rawPass: boolean;
  readonly entries: readonly CorpusEntry[];
}

/**
 * Quotes one argument the way redis-cli's sdssplitargs reads it back: bare when it is plain,
 * otherwise double-quoted with backslash escapes (\xHH for other control or non-ASCII bytes).
 */
export function quoteArg(arg: string): string {
  if (arg.length > 0 && /^[\x21-\x7e]+$/.test(arg) && !/["'\\]/.test(arg)) return arg;
  let out = '"';
  for (let i = 0; i < arg.length; i++) {
    const c = arg.charCodeAt(i);
    const ch = arg[i];
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c >= 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

export function sha1Hex(text: string): string {
  return createHash('sha1').update(Buffer.from(text, 'latin1')).digest('hex');
}

const MARKER_RE = /\s+#\s+((?:tolerance|sort|known)\b[^"']*)$/;

function parseMarkers(text: string, where: string): EntryMarkers {
  const markers: EntryMarkers = {};
  for (const part of text.split(',')) {
    const m = /^\s*(\w+)\s*(?::\s*(\S+))?\s*$/.exec(part);
    if (!m) throw new Error(`${where}: bad marker ${JSON.stringify(part)}`);
    const [, key, value] = m;
    if (key === 'tolerance') {
      const n = Number(value);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`${where}: tolerance needs a positive integer`);
      markers.tolerance = n;
    } else if (key === 'sort' && value === undefined) {
      markers.sort = true;
    } else if (key === 'known' && value) {
      markers.known = value;
    } else {
      throw new Error(`${where}: unknown marker ${JSON.stringify(part.trim())}`);
    }
  }
  return markers;
}

export type ScriptSource = (name: string) => string;

/**
 * Entries compared as one unit. Normally one entry each; between MULTI and EXEC/DISCARD the
 * server queues every command (the harness's end-of-entry ECHO too), so a whole transaction is
 * one chunk and its entries are compared together.
 */
export function chunkEntries(entries: readonly CorpusEntry[]): CorpusEntry[][] {
  const chunks: CorpusEntry[][] = [];
  let open: CorpusEntry[] | null = null;
  for (const e of entries) {
    const name = /^\s*(\S+)/.exec(e.command)?.[1].toLowerCase() ?? '';
    if (open) {
      open.push(e);
      if (name === 'exec' || name === 'discard') {
        chunks.push(open);
        open = null;
      }
    } else if (name === 'multi' && /^\s*\S+\s*$/.test(e.command)) {
      open = [e];
    } else chunks.push([e]);
  }
  if (open) chunks.push(open);
  return chunks;
}

export function parseCorpus(name: string, text: string, scripts: ScriptSource): CorpusFile {
  const entries: CorpusEntry[] = [];
  let rawPass = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const where = `${name}:${i + 1}`;
    const trimmed = lines[i].trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      if (/^#\s*pass:\s*raw\s*$/.test(trimmed)) rawPass = true;
      continue;
    }
    let command = trimmed;
    let markers: EntryMarkers = {};
    const m = MARKER_RE.exec(command);
    if (m) {
      markers = parseMarkers(m[1], where);
      command = command.slice(0, m.index);
    }
    // redis-cli's prompt reads a leading number as a repeat count ("3 PING"; strtol also reads
    // "" as 0), so such a line tests redis-cli, not the server.
    if (/^(\d|[+-]\d|""|'')/.test(command))
      throw new Error(`${where}: an entry must not start with a number`);
    command = command.replace(/\{\{(lua|sha):([\w-]+)\}\}/g, (_, kind: string, script: string) =>
      kind === 'lua' ? quoteArg(scripts(script)) : sha1Hex(scripts(script)),
    );
    entries.push({ id: where, line: i + 1, command, markers });
  }
  if (entries.length === 0 || !/^FLUSHALL$/i.test(entries[0].command)) {
    throw new Error(`${name}: the first entry must be FLUSHALL, so every file starts from an empty server`);
  }
  return { name, rawPass, entries };
}
