/**
 * Reads corpus/*.redis (or another folder's, e.g. corpus_cluster/) in name order and the Redisson
 * scripts they reference, from disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCorpus, type CorpusFile } from './corpus';

const SCRIPTS_DIR = fileURLToPath(new URL('../../redisson/scripts/', import.meta.url));

export function readScript(name: string): string {
  return readFileSync(`${SCRIPTS_DIR}${name}.lua`, 'utf8');
}

export function loadCorpus(folder = 'corpus'): CorpusFile[] {
  const dir = fileURLToPath(new URL(`./${folder}/`, import.meta.url));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.redis'))
    .sort()
    .map((f) => parseCorpus(f, readFileSync(dir + f, 'utf8'), readScript));
}
