/**
 * Runs a corpus file through the real `redis-cli` (one process per file, commands on stdin) and
 * cuts its output back into one string per chunk (an entry, or a whole MULTI...EXEC). An `ECHO`
 * of a sentinel after every chunk marks where its output ends, since a reply can span any number
 * of lines.
 */
import { spawn } from 'node:child_process';
import type { CliMode } from '../cli_format';
import type { CorpusEntry } from './corpus';

const SENTINEL = 'lockscope-conformance-entry-end';

/** Output per chunk (see corpus.ts chunkEntries): the sentinel goes only where nothing is queued. */
export function runRealCli(
  cli: string,
  port: number,
  chunks: readonly (readonly CorpusEntry[])[],
  mode: CliMode,
): Promise<string[]> {
  const input = chunks.map((c) => c.map((e) => `${e.command}\n`).join('') + `ECHO ${SENTINEL}\n`).join('');
  const args = [mode === 'tty' ? '--no-raw' : '--raw', '-h', '127.0.0.1', '-p', String(port)];
  return new Promise((resolve, reject) => {
    const child = spawn(cli, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', reject);
    child.once('close', (code) => {
      // latin1: one char per byte, the engine's byte-string convention (bytes.ts).
      const text = Buffer.concat(out).toString('latin1');
      const outputs = splitOutputs(text, mode);
      if (code !== 0 || outputs.length !== chunks.length) {
        reject(
          new Error(
            `redis-cli exited with ${code} after ${outputs.length}/${chunks.length} chunks: ` +
              Buffer.concat(err).toString(),
          ),
        );
      } else resolve(outputs);
    });
    child.stdin.end(Buffer.from(input, 'utf8'));
  });
}

/** Each chunk's output exactly as printed, trailing newline included ("" if it printed nothing). */
function splitOutputs(text: string, mode: CliMode): string[] {
  const markerLine = (mode === 'tty' ? `"${SENTINEL}"` : SENTINEL) + '\n';
  const outputs: string[] = [];
  let from = 0;
  for (;;) {
    let at = text.indexOf(markerLine, from);
    // the marker must be a whole line
    while (at > 0 && text[at - 1] !== '\n') at = text.indexOf(markerLine, at + 1);
    if (at < 0) return outputs;
    outputs.push(text.slice(from, at));
    from = at + markerLine.length;
  }
}
