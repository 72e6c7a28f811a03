/**
 * Formats a reply exactly as redis-cli 7.0.15 prints it (redis-cli.c `cliFormatReplyTTY` for
 * 'tty', `cliFormatReplyRaw` plus the command delimiter for 'raw'). Strings are byte strings
 * and come out as byte strings: raw mode writes the bytes as they are, tty mode escapes
 * everything outside printable ASCII like sds.c `sdscatrepr`. The result always ends in "\n".
 */
import type { Reply } from './reply';

export type CliMode = 'tty' | 'raw';

export function formatReply(reply: Reply, mode: CliMode): string {
  return mode === 'tty' ? formatTty(reply, '') : formatRaw(reply) + '\n';
}

/**
 * redis-cli.c cliSendCommand's `output_raw`: the replies of these commands (INFO, CLUSTER NODES,
 * CLUSTER INFO ...) are text meant to be read as is, printed raw in either mode and with no
 * newline added.
 */
export function printedVerbatim(argv: readonly string[]): boolean {
  const argc = argv.length;
  const cmd = argv[0]?.toLowerCase();
  const sub = argc >= 2 ? argv[1].toLowerCase() : '';
  switch (cmd) {
    case 'info':
    case 'lolwut':
      return true;
    case 'debug':
      return sub === 'htstats' || sub === 'htstats-key' || sub === 'client-eviction';
    case 'memory':
      return sub === 'malloc-stats' || sub === 'doctor';
    case 'cluster':
      return argc === 2 && (sub === 'nodes' || sub === 'info');
    case 'client':
      return sub === 'list' || sub === 'info';
    case 'latency':
      return (argc === 3 && sub === 'graph') || (argc === 2 && sub === 'doctor');
    case 'proxy':
      return sub === 'info';
    default:
      return false;
  }
}

/** What redis-cli prints for `reply` to the command `argv` (cliFormatReply with its verbatim flag). */
export function formatCommandReply(argv: readonly string[], reply: Reply, mode: CliMode): string {
  return printedVerbatim(argv) ? formatRaw(reply) : formatReply(reply, mode);
}

/** sds.c sdscatrepr: a double-quoted, escaped rendering of a byte string. */
export function quoteBytes(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    switch (c) {
      case 0x5c:
        out += '\\\\';
        break;
      case 0x22:
        out += '\\"';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x07:
        out += '\\a';
        break;
      case 0x08:
        out += '\\b';
        break;
      default:
        if (c >= 0x20 && c <= 0x7e) out += s[i];
        else out += '\\x' + (c & 0xff).toString(16).padStart(2, '0');
    }
  }
  return out + '"';
}

function formatTty(r: Reply, prefix: string): string {
  switch (r.t) {
    case 'error':
      return `(error) ${r.v}\n`;
    case 'status':
      return r.v + '\n';
    case 'int':
      return `(integer) ${String(r.v)}\n`;
    case 'bulk':
      return r.v === null ? '(nil)\n' : quoteBytes(r.v) + '\n';
    case 'array': {
      const items = r.v;
      if (items === null) return '(nil)\n';
      if (items.length === 0) return '(empty array)\n';
      const width = String(items.length).length;
      const childPrefix = prefix + ' '.repeat(width + 2);
      let out = '';
      for (let i = 0; i < items.length; i++) {
        out += (i === 0 ? '' : prefix) + String(i + 1).padStart(width, ' ') + ') ';
        out += formatTty(items[i], childPrefix);
      }
      return out;
    }
  }
}

function formatRaw(r: Reply): string {
  switch (r.t) {
    case 'error':
      return r.v + '\n';
    case 'status':
      return r.v;
    case 'int':
      return String(r.v);
    case 'bulk':
      return r.v ?? '';
    case 'array':
      return r.v === null ? '' : r.v.map(formatRaw).join('\n');
  }
}
