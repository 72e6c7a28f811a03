/**
 * Maps a schema path ("clients[1].threads[0].program[2].op") to the character range of that
 * value in the JSON text, so an issue can be underlined where it is. Tolerant: returns null for
 * text that does not parse or a path that is not there.
 */
export interface Range {
  from: number;
  to: number;
}

export function parsePath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

export function locatePath(text: string, path: string): Range | null {
  const want = parsePath(path);
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return '';
    }
  };
  // After a member of an object or array: true past a ',' (more follow), false past `close` (the
  // container ended), null on anything else.
  const afterMember = (close: '}' | ']'): boolean | null => {
    ws();
    if (text[i] !== ',' && text[i] !== close) return null;
    return text[i++] === ',';
  };
  // An object member's key, past its ':'; null when there is no key there.
  const memberKey = (): string | null => {
    ws();
    if (text[i] !== '"') return null;
    const key = str();
    ws();
    if (text[i] !== ':') return null;
    i++;
    return key;
  };
  // An empty container: consumes its closing bracket.
  const closesAt = (close: '}' | ']'): boolean => {
    ws();
    if (text[i] !== close) return false;
    i++;
    return true;
  };
  // Returns the range of the value at the current position, descending along want[depth..].
  const value = (depth: number): Range | null => {
    ws();
    const start = i;
    const whole = (): Range | null => (depth === want.length ? { from: start, to: i } : null);
    const ch = text[i];
    if (ch === '{') {
      i++;
      if (closesAt('}')) return whole();
      for (;;) {
        ws();
        const keyStart = i;
        const key = memberKey();
        if (key === null) return null;
        if (depth < want.length && want[depth] === key) {
          const r = value(depth + 1);
          // A missing field is reported at its parent key.
          return r ?? { from: keyStart, to: i };
        }
        if (!skip()) return null;
        const more = afterMember('}');
        if (more === null) return null;
        if (!more) return whole();
      }
    }
    if (ch === '[') {
      i++;
      if (closesAt(']')) return whole();
      for (let idx = 0; ; idx++) {
        if (depth < want.length && want[depth] === idx) return value(depth + 1);
        if (!skip()) return null;
        const more = afterMember(']');
        if (more === null) return null;
        if (!more) return whole();
      }
    }
    return skip() ? whole() : null;
  };
  const skip = (): boolean => {
    ws();
    const ch = text[i];
    if (ch === '"') {
      str();
      return true;
    }
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      i++;
      if (closesAt(close)) return true;
      for (;;) {
        if (ch === '{' && memberKey() === null) return false;
        if (!skip()) return false;
        const more = afterMember(close);
        if (more !== true) return more === false;
      }
    }
    const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 40));
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  try {
    return value(0) ?? (want.length === 0 ? { from: 0, to: Math.min(1, text.length) } : null);
  } catch {
    return null;
  }
}
