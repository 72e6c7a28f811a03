/** The verbose run's script events, from a node's Lua tracer (the kernel installs it on each server). */
import type { ScriptTracer } from '../redis/eval';
import type { SimNode } from './kernel_parts';
import type { Recorder } from './recorder';
import { replyToJson } from './reply_json';

/**
 * Verbose runs: script.begin / script.end bracket a script run, and script.line / script.call
 * inside it name the script by sha (the cmd event comes after them). script.begin carries the
 * script's text the first time this server runs that sha: from the EVAL itself, or from the
 * SCRIPT LOAD or EVAL that put it in this server's cache (a server rebuilt empty starts over).
 */
export function scriptTracer(node: SimNode, rec: Recorder): ScriptTracer {
  const id = node.id;
  let sha = '';
  return {
    begin: (s, keys, args) => {
      sha = s;
      const argv = node.execArgv;
      if (argv !== null && argv.length >= 2 && /^eval(_ro)?$/i.test(argv[0]))
        node.scriptTexts.set(s, argv[1]);
      const text = node.scriptsShown.has(s) ? undefined : node.scriptTexts.get(s);
      if (text !== undefined) node.scriptsShown.add(s);
      rec.emit('script.begin', {
        actor: id,
        node: id,
        sha,
        keys: keys.slice(),
        args: args.slice(),
        ...(text === undefined ? {} : { script: text }),
      });
    },
    line: (line) => rec.emit('script.line', { actor: id, node: id, sha, line }),
    call: (argv, reply) =>
      rec.emit('script.call', {
        actor: id,
        node: id,
        sha,
        argv: argv.slice(),
        reply: replyToJson(reply),
      }),
    end: (reply) => rec.emit('script.end', { actor: id, node: id, sha, reply: replyToJson(reply) }),
  };
}
