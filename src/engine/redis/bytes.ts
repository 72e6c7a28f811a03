/**
 * Byte strings: the engine's representation of Redis strings. A byte string is a JS string whose
 * every char code is 0..255 and stands for one byte. Text typed by a person (console, scenario
 * JSON, CLI stdin) enters through `bytesFromText` (UTF-8 encode) and leaves for display through
 * `textFromBytes` (UTF-8 decode, invalid sequences become U+FFFD).
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

// Pure ASCII is by far the common case (keys, UUIDs, numbers): skip the codec for it.
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function bytesFromText(text: string): string {
  if (isAscii(text)) return text;
  return bytesFromUint8(encoder.encode(text));
}

export function textFromBytes(bytes: string): string {
  if (isAscii(bytes)) return bytes;
  return decoder.decode(uint8FromBytes(bytes));
}

export function bytesFromUint8(a: Uint8Array): string {
  let out = '';
  const CHUNK = 0x2000;
  for (let i = 0; i < a.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, Array.from(a.subarray(i, i + CHUNK)));
  }
  return out;
}

export function uint8FromBytes(s: string): Uint8Array {
  const a = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) a[i] = s.charCodeAt(i) & 0xff;
  return a;
}
