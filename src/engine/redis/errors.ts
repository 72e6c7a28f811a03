/**
 * Redis 7.0.15's error replies, word for word (server.c `createSharedObjects` and the
 * addReplyError calls of each command). One home: commands import these, never retype them.
 */
import type { ErrorReply } from './reply';
import { error } from './reply';

function shared(text: string): ErrorReply {
  return Object.freeze(error(text));
}

export const WRONGTYPE = shared('WRONGTYPE Operation against a key holding the wrong kind of value');
export const SYNTAX = shared('ERR syntax error');
export const NOT_INTEGER = shared('ERR value is not an integer or out of range');
export const OUT_OF_RANGE = shared('ERR value is out of range');
export const NOT_FLOAT = shared('ERR value is not a valid float');
export const OVERFLOW = shared('ERR increment or decrement would overflow');
export const HASH_NOT_INTEGER = shared('ERR hash value is not an integer');
export const HASH_NOT_FLOAT = shared('ERR hash value is not a float');
export const NAN_OR_INF = shared('ERR value is NaN or Infinity');
export const WOULD_PRODUCE_NAN = shared('ERR increment would produce NaN or Infinity');
export const NO_SUCH_KEY = shared('ERR no such key');
export const INDEX_OUT_OF_RANGE = shared('ERR index out of range');
export const MUST_BE_POSITIVE = shared('ERR value is out of range, must be positive');
export const MIN_MAX_NOT_FLOAT = shared('ERR min or max is not a float');

export function arityError(fullname: string): ErrorReply {
  return error(`ERR wrong number of arguments for '${fullname}' command`);
}

export function expireTimeError(fullname: string): ErrorReply {
  return error(`ERR invalid expire time in '${fullname}' command`);
}

/** server.c commandCheckExistence: each argument quoted and followed by a space, cut at 128 bytes. */
export function unknownCommandError(argv: readonly string[]): ErrorReply {
  let args = '';
  for (let i = 1; i < argv.length && args.length < 128; i++) {
    args += `'${argv[i].slice(0, 128 - args.length)}' `;
  }
  return error(sanitize(`ERR unknown command '${argv[0].slice(0, 128)}', with args beginning with: ${args}`));
}

/** server.c commandCheckExistence for a container command (SCRIPT, PUBSUB, ...) with an unknown subcommand. */
export function unknownSubcommandError(sub: string, container: string): ErrorReply {
  return error(
    sanitize(`ERR unknown subcommand '${sub.slice(0, 128)}'. Try ${container.toUpperCase()} HELP.`),
  );
}

/** networking.c addReplyErrorLength: CR and LF would break the protocol, so Redis turns them into spaces. */
export function sanitize(text: string): string {
  if (text.indexOf('\r') < 0 && text.indexOf('\n') < 0) return text;
  return text.replace(/[\r\n]/g, ' ');
}

/** networking.c addReplySubcommandSyntaxError, e.g. PUBSUB CHANNELS with too many arguments. */
export function subcommandSyntaxError(argv: readonly string[]): ErrorReply {
  return error(
    sanitize(
      `ERR unknown subcommand or wrong number of arguments for '${argv[1].slice(0, 128)}'. Try ${argv[0].toUpperCase()} HELP.`,
    ),
  );
}
