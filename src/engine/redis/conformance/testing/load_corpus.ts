/**
 * Reads corpus/*.redis (or another folder's, e.g. corpus_cluster/) in name order, with the
 * Redisson scripts they reference: Redisson 4.7.0's own texts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCorpus, type CorpusFile } from '../corpus';
import { FORCE_UNLOCK, LOCK, RENEW_BATCH, UNLOCK } from '../../../redisson/scripts/RedissonLock';

const SCRIPTS: Readonly<Record<string, string>> = {
  lock: LOCK.at('4.7.0').text,
  unlock: UNLOCK.at('4.7.0').text,
  renew: RENEW_BATCH.at('4.7.0').text,
  force_unlock: FORCE_UNLOCK.at('4.7.0').text,
};

export function readScript(name: string): string {
  const text = SCRIPTS[name];
  if (text === undefined) throw new Error(`no Redisson script named ${name}`);
  return text;
}

export function loadCorpus(folder = 'corpus'): CorpusFile[] {
  const dir = fileURLToPath(new URL(`../${folder}/`, import.meta.url));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.redis'))
    .sort()
    .map((f) => parseCorpus(f, readFileSync(dir + f, 'utf8'), readScript));
}
