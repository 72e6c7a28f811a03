import { describe, expect, it } from 'vitest';
import { acquired, bLockScript, cmd, ev, secondAcquire, violationStart } from './events';

describe('event builders', () => {
  it('write the fields a lesson wrote by hand, in its order, and no others', () => {
    const cases: [unknown, string][] = [
      [ev('lock.wait', 'B:1'), '{"kind":"lock.wait","actor":"B:1"}'],
      [ev('watchdog.renew', 'A:1', { nth: 6 }), '{"kind":"watchdog.renew","actor":"A:1","nth":6}'],
      [cmd('A:1', 'DEL'), '{"kind":"cmd","actor":"A:1","cmd":"DEL"}'],
      [
        cmd('A:2', 'EVALSHA', { before: ev('lock.error', 'A:2'), nth: -1 }),
        '{"kind":"cmd","actor":"A:2","cmd":"EVALSHA","before":{"kind":"lock.error","actor":"A:2"},"nth":-1}',
      ],
      [acquired('B:2'), '{"kind":"lock.acquired","actor":"B:2"}'],
      [violationStart('V3'), '{"kind":"violation.start","where":{"violation":"V3"}}'],
      [
        violationStart('V1', 'lock:job', 2),
        '{"kind":"violation.start","lock":"lock:job","where":{"violation":"V1"},"nth":2}',
      ],
      [bLockScript, '{"kind":"cmd","actor":"B:1","cmd":"EVALSHA","key":"myLock"}'],
      [
        secondAcquire,
        '{"kind":"cmd","actor":"A:1","cmd":"EVALSHA","key":"myLock","after":{"kind":"lock.request","actor":"A:1","nth":2}}',
      ],
    ];
    for (const [built, json] of cases) expect(JSON.stringify(built)).toBe(json);
  });
});
