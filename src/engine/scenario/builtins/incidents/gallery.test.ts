/**
 * The gallery as a whole: every incident has its thread, its release, its words in both languages
 * and its pair both ways; every run gives the verdict its card claims. What each one shows is
 * checked in the family's own test file.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../redisson/testing/simulate';
import { builtins } from '../index';
import type { IncidentFamily } from '../types';
import { incidents } from './index';

const FAMILIES: IncidentFamily[] = [
  'unlock',
  'watchdog',
  'fair',
  'failover',
  'subscription',
  'design',
  'transaction',
];

describe('the gallery of real incidents', () => {
  it('every incident names its thread, release, symptom, cause and keywords in both languages', () => {
    for (const b of incidents) {
      const i = b.incident!;
      expect(b.group, b.id).toBe('incidents');
      expect(b.id, b.id).toMatch(/^incident-/);
      expect(i.links.length, b.id).toBeGreaterThan(0);
      for (const l of i.links) expect(l, b.id).toMatch(/^https:\/\//);
      expect(i.reported, b.id).not.toBe('');
      for (const t of [i.symptom, i.cause]) {
        expect(t.en.length, b.id).toBeGreaterThan(20);
        expect(t.zh, b.id).toMatch(/[\u4e00-\u9fff]/);
      }
      expect(
        i.keywords.some((k) => /[\u4e00-\u9fff]/.test(k)),
        `${b.id}: a 中文 keyword`,
      ).toBe(true);
      expect(
        i.keywords.some((k) => /^[\x20-\x7e]+$/.test(k)),
        `${b.id}: an English keyword`,
      ).toBe(true);
    }
  });

  it('pairs point at each other, and a fixed pair runs on the release that fixed it', () => {
    const byId = new Map(builtins.map((b) => [b.id, b]));
    for (const b of incidents) {
      const i = b.incident!;
      if (i.pair) {
        const p = byId.get(i.pair);
        expect(p?.incident?.pairOf, b.id).toBe(b.id);
        if (i.fixedIn) {
          expect((p!.scenario.redisson as { version?: string }).version, b.id).toBe(i.fixedIn);
          expect((b.scenario.redisson as { version?: string } | undefined)?.version, b.id).toBeDefined();
        }
      }
      if (i.pairOf) expect(byId.get(i.pairOf)?.incident?.pair, b.id).toBe(b.id);
    }
  });

  it.each(incidents.map((b) => [b.id, b] as const))('%s gives the verdict its card claims', (_id, b) => {
    expect(simulate(b.scenario).trace.verdict).toBe(b.incident!.verdict);
  });

  it('has at least 25 incidents over every family', () => {
    const main = incidents.filter((b) => !b.incident!.pairOf);
    expect(main.length).toBeGreaterThanOrEqual(25);
    const families = new Set(main.map((b) => b.incident!.family));
    expect([...families].sort()).toEqual([...FAMILIES].sort());
    // every verdict a real incident can deserve is among them
    expect(new Set(main.map((b) => b.incident!.verdict))).toEqual(new Set(['safe', 'unsafe', 'stuck']));
  });

  it('every incident is listed in docs/incidents.md with its link', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../../../../docs/incidents.md', import.meta.url), 'utf8');
    for (const b of incidents) {
      expect(doc, b.id).toContain(`\`${b.id}\``);
      if (!b.incident!.pairOf) expect(doc, b.id).toContain(b.incident!.links[0]);
    }
  });
});
