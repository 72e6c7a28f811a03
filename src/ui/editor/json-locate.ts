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
  // Returns the range of the value at the current position, descending along want[depth..].
  const value = (depth: number): Range | null => {
    ws();
    const start = i;
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return depth === want.length ? { from: start, to: i } : null;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') return null;
        const keyStart = i;
        const key = str();
        ws();
        if (text[i] !== ':') return null;
        i++;
        if (depth < want.length && want[depth] === key) {
          const r = value(depth + 1);
          // A missing field is reported at its parent key.
          return r ?? { from: keyStart, to: i };
        }
        if (!skip()) return null;
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          break;
        } else return null;
      }
      return depth === want.length ? { from: start, to: i } : null;
    }
    if (ch === '[') {
      i++;
      let idx = 0;
      ws();
      if (text[i] === ']') {
        i++;
        return depth === want.length ? { from: start, to: i } : null;
      }
      for (;;) {
        if (depth < want.length && want[depth] === idx) return value(depth + 1);
        if (!skip()) return null;
        ws();
        idx++;
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          break;
        } else return null;
      }
      return depth === want.length ? { from: start, to: i } : null;
    }
    if (!skip()) return null;
    return depth === want.length ? { from: start, to: i } : null;
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
      ws();
      if (text[i] === close) {
        i++;
        return true;
      }
      for (;;) {
        ws();
        if (ch === '{') {
          if (text[i] !== '"') return false;
          str();
          ws();
          if (text[i] !== ':') return false;
          i++;
        }
        if (!skip()) return false;
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) {
          i++;
          return true;
        } else return false;
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
