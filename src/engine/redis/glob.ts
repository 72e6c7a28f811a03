/**
 * Redis's glob matcher (util.c `stringmatchlen`), used by KEYS, PSUBSCRIBE and PUBSUB CHANNELS.
 * A port rather than a regex so the odd corners match: unterminated `[`, reversed ranges
 * `[z-a]`, `\` escapes, bytes compared as signed chars like the C code does.
 */
function sc(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c > 127 ? c - 256 : c;
}

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

export function stringMatch(pattern: string, str: string, nocase = false): boolean {
  const skip = { longer: false };
  return matchImpl(pattern, 0, str, 0, nocase, skip, 0);
}

function matchImpl(
  p: string,
  pi: number,
  s: string,
  si: number,
  nocase: boolean,
  skip: { longer: boolean },
  nesting: number,
): boolean {
  if (nesting > 1000) return false;
  const plen = p.length;
  const slen = s.length;
  while (pi < plen && si < slen) {
    const pc = p.charCodeAt(pi);
    if (pc === 42 /* * */) {
      while (pi + 1 < plen && p.charCodeAt(pi + 1) === 42) pi++;
      if (pi === plen - 1) return true;
      while (si < slen) {
        if (matchImpl(p, pi + 1, s, si, nocase, skip, nesting + 1)) return true;
        if (skip.longer) return false;
        si++;
      }
      skip.longer = true;
      return false;
    } else if (pc === 63 /* ? */) {
      si++;
    } else if (pc === 91 /* [ */) {
      pi++;
      const not = pi < plen && p.charCodeAt(pi) === 94; /* ^ */
      if (not) pi++;
      let match = false;
      for (;;) {
        const left = plen - pi;
        if (left >= 2 && p.charCodeAt(pi) === 92 /* \ */) {
          pi++;
          if (p.charCodeAt(pi) === s.charCodeAt(si)) match = true;
        } else if (left > 0 && p.charCodeAt(pi) === 93 /* ] */) {
          break;
        } else if (left === 0) {
          pi--;
          break;
        } else if (left >= 3 && p.charCodeAt(pi + 1) === 45 /* - */) {
          let start = sc(p, pi);
          let end = sc(p, pi + 2);
          let c = sc(s, si);
          if (start > end) [start, end] = [end, start];
          if (nocase) {
            start = lower(start);
            end = lower(end);
            c = lower(c);
          }
          pi += 2;
          if (c >= start && c <= end) match = true;
        } else if (!nocase) {
          if (p.charCodeAt(pi) === s.charCodeAt(si)) match = true;
        } else if (lower(p.charCodeAt(pi)) === lower(s.charCodeAt(si))) {
          match = true;
        }
        pi++;
      }
      if (not) match = !match;
      if (!match) return false;
      si++;
    } else {
      if (pc === 92 /* \ */ && plen - pi >= 2) pi++;
      const a = p.charCodeAt(pi);
      const b = s.charCodeAt(si);
      if (nocase ? lower(a) !== lower(b) : a !== b) return false;
      si++;
    }
    pi++;
    if (si === slen) {
      while (pi < plen && p.charCodeAt(pi) === 42) pi++;
      break;
    }
  }
  return pi === plen && si === slen;
}
