import { describe, expect, it } from 'vitest';
import {
  decodeHash,
  decodeLessonHash,
  decodeScenarioHash,
  encodeLessonHash,
  encodeScenarioHash,
  isPresent,
} from '../url-state';

describe('lesson links', () => {
  it('round-trips a lesson and a step (1-based in the link, 0-based inside)', () => {
    expect(encodeLessonHash({ lesson: 'waiting', step: 2 })).toBe('#lesson=waiting&step=3');
    expect(decodeLessonHash('#lesson=waiting&step=3')).toEqual({ lesson: 'waiting', step: 2 });
    expect(decodeLessonHash('lesson=why-lock')).toEqual({ lesson: 'why-lock', step: 0 });
    expect(decodeLessonHash('#lesson=why-lock&step=0')).toEqual({ lesson: 'why-lock', step: 0 });
  });

  it('refuses what is not a lesson link, and the scenario decoder ignores lesson links', () => {
    for (const h of ['', '#', '#s=abc&c=1', '#lesson=', '#lesson=../x', '#lesson=A&step=1', '#lessons=x'])
      expect(decodeLessonHash(h)).toBeNull();
    expect(decodeHash('#lesson=waiting&step=3')).toEqual({ kind: 'none' });
  });

  it('carries predict mode and the language (LA1, LA24)', () => {
    const link = { lesson: 'watchdog', step: 0, predict: true, lang: 'zh' as const };
    expect(encodeLessonHash(link)).toBe('#lesson=watchdog&step=1&p=1&lang=zh');
    expect(decodeLessonHash('#lesson=watchdog&step=1&p=1&lang=zh')).toEqual(link);
    expect(decodeLessonHash('#lesson=watchdog&step=1&lang=fr&p=0')).toEqual({ lesson: 'watchdog', step: 0 });
    expect(encodeLessonHash({ lesson: 'watchdog', step: 0, predict: false })).toBe('#lesson=watchdog&step=1');
  });

  it('opens a built-in by a readable #scenario=<id> (LA24)', () => {
    expect(decodeScenarioHash('#scenario=watchdog-renewal')).toEqual({ id: 'watchdog-renewal' });
    const full = { id: 'redlock-clock-jump', cursor: 12, predict: true, lang: 'en' as const };
    expect(decodeScenarioHash(encodeScenarioHash(full))).toEqual(full);
    for (const h of ['', '#scenario=', '#scenario=../x', '#s=abc', '#lesson=x&step=1'])
      expect(decodeScenarioHash(h)).toBeNull();
    expect(decodeLessonHash('#scenario=watchdog-renewal')).toBeNull();
  });

  it('reads ?present=1', () => {
    expect(isPresent('?present=1')).toBe(true);
    expect(isPresent('?embed=1&present=1')).toBe(true);
    expect(isPresent('?present=0')).toBe(false);
    expect(isPresent('')).toBe(false);
  });
});
