import { writeFileSync } from 'node:fs';
import './src/engine/redisson/versions_text';
import { BEHAVIOUR_CHANGES, traitsFor, versionTraits, RELEASE_TRAITS } from './src/engine/redisson/versions';
const rel = [...BEHAVIOUR_CHANGES, 'latest', '3.10.0', '3.11.6', '3.12.0', '3.27.2', '4.7.0', '3.16.1', 'garbage', undefined as unknown as string];
const out = { traits: rel.map((r) => versionTraits(r)), text: rel.map((r) => traitsFor(r)) };
console.log(JSON.stringify(out));
if (process.argv.includes('--gen')) {
  const T: Record<string, unknown> = {};
  for (const [k, r] of Object.entries(RELEASE_TRAITS) as [string, any][]) T[k] = { en: r.en, zh: r.zh, values: r.ranges.map((x: any) => ({ en: x.en, zh: x.zh })) };
  writeFileSync('/tmp/first/trait-text.json', JSON.stringify(T, null, 2));
}
