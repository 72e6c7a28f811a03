/** Helpers for the tests of the CLI commands (src/cli/*_main.ts): capture output, write inputs. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../cli/sim_main';

/** Runs a command function with captured stdout and stderr. */
export function capture(main: (argv: string[], io: CliIo) => number, argv: string[]) {
  let out = '';
  let err = '';
  const code = main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** A fresh temporary directory and a function writing a named file into it (returns its path). */
export function tempFiles(prefix: string): { dir: string; file: (name: string, text: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file: (name, text) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    },
  };
}
