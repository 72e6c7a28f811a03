/**
 * Where a JSON text first goes wrong. V8's newer JSON.parse messages ("Unexpected token 'x', ...
 * is not valid JSON") name no position, so the editor finds it itself: a strict JSON (RFC 8259)
 * scan that stops at the first character a parser cannot take.
 */

class Stop {
  constructor(readonly at: number) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;

/** The index of the first character JSON.parse would refuse (text.length when it ends early), or null. */
export function firstSyntaxError(text: string): number | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const expect = (c: string) => {
    if (text[i] !== c) throw new Stop(i);
    i++;
  };
  const literal = (word: string) => {
    for (const c of word) expect(c);
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= text.length) throw new Stop(i);
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) throw new Stop(i);
      if (c === 0x5c) {
        ESCAPE.lastIndex = i + 1;
        const m = ESCAPE.exec(text);
        if (m === null) throw new Stop(i + 1);
        i += 1 + m[0].length;
      } else i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        string();
        ws();
        expect(':');
        value();
        ws();
        if (text[i] === '}') return void i++;
        expect(',');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ']') return void i++;
        expect(',');
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null || m[0].length === 0) throw new Stop(i);
    i += m[0].length;
  };
  try {
    value();
    ws();
    return i < text.length ? i : null;
  } catch (e) {
    if (e instanceof Stop) return e.at;
    throw e;
  }
}
