/**
 * SHA-1 of a byte string (one char per byte, see bytes.ts), as lowercase hex: the name Redis gives
 * a script (eval.c `sha1hex`) and what `redis.sha1hex` returns. Synchronous because the engine is:
 * WebCrypto's digest is async and Node's crypto is not available in the page.
 */
const W = new Int32Array(80);

export function sha1hex(bytes: string): string {
  const len = bytes.length;
  // message + 0x80 + zero padding + 64-bit big-endian bit length, rounded up to 64-byte blocks
  const blocks = ((len + 8) >>> 6) + 1;
  const words = new Int32Array(blocks * 16);
  for (let i = 0; i < len; i++) words[i >>> 2] |= (bytes.charCodeAt(i) & 0xff) << (24 - (i & 3) * 8);
  words[len >>> 2] |= 0x80 << (24 - (len & 3) * 8);
  const bitLen = len * 8;
  words[blocks * 16 - 1] = bitLen | 0;
  words[blocks * 16 - 2] = Math.floor(bitLen / 0x100000000) | 0;

  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  for (let b = 0; b < words.length; b += 16) {
    for (let t = 0; t < 16; t++) W[t] = words[b + t];
    for (let t = 16; t < 80; t++) {
      const x = W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16];
      W[t] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let bb = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let t = 0; t < 80; t++) {
      let f: number;
      let k: number;
      if (t < 20) {
        f = (bb & c) | (~bb & d);
        k = 0x5a827999;
      } else if (t < 40) {
        f = bb ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (t < 60) {
        f = (bb & c) | (bb & d) | (c & d);
        k = 0x8f1bbcdc | 0;
      } else {
        f = bb ^ c ^ d;
        k = 0xca62c1d6 | 0;
      }
      const tmp = (((a << 5) | (a >>> 27)) + f + e + k + W[t]) | 0;
      e = d;
      d = c;
      c = (bb << 30) | (bb >>> 2);
      bb = a;
      a = tmp;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + bb) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return hex8(h0) + hex8(h1) + hex8(h2) + hex8(h3) + hex8(h4);
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}
