/** Reads corpus/*.redis (in name order) and the Redisson scripts they reference, from disk. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCorpus, type CorpusFile } from './corpus';

const CORPUS_DIR = fileURLToPath(new URL('./corpus/', import.meta.url));
const SCRIPTS_DIR = fileURLToPath(new URL('../../redisson/scripts/', import.meta.url));

export function readScript(name: string): string {
  return readFileSync(`${SCRIPTS_DIR}${name}.lua`, 'utf8');
}

export function loadCorpus(): CorpusFile[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.redis'))
    .sort()
    .map((f) => parseCorpus(f, readFileSync(CORPUS_DIR + f, 'utf8'), readScript));
}
