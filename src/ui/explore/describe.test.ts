import { beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../engine/explore';
import type { Fault } from '../../engine/scenario/schema';
import { loadLang, translate, type Lang, type MessageKey } from '../i18n';
import { describeChange, describeFault } from './describe';

// Chinese loads on demand in the page; these tests read it.
beforeAll(() => loadLang('zh'));

const tr = (lang: Lang) => (key: MessageKey, vars?: Record<string, string | number>) =>
  translate(lang, key, vars);

const base = {
  baseFaults: [{ kind: 'pause', at: 1000, client: 'A', ms: 40000 } as Fault],
  baseReplicas: [40],
};

describe('describeFault', () => {
  it.each<[Fault, string, string]>([
    [
      { kind: 'pause', at: 1006, client: 'A', ms: 31500 },
      'A paused for 31500 ms at 1006 ms',
      'A 在 1006 毫秒停顿 31500 毫秒',
    ],
    [{ kind: 'crash', at: 5, client: 'B' }, 'client B crashes at 5 ms', '客户端 B 在 5 毫秒崩溃'],
    [{ kind: 'crash', at: 7, node: 'master' }, 'master crashes at 7 ms', 'master 在 7 毫秒崩溃'],
    [{ kind: 'restart', at: 9, node: 'master' }, 'master restarts at 9 ms', 'master 在 9 毫秒重启'],
    [
      { kind: 'partition', at: 10, groups: [['A'], ['master', 'B']], healAt: 90 },
      'partition [A] | [master, B] at 10 ms, healed at 90 ms',
      '10 毫秒时网络分区 [A] | [master, B]，90 毫秒恢复',
    ],
    [
      { kind: 'partition', at: 10, groups: [['A'], ['master']] },
      'partition [A] | [master] at 10 ms, never healed',
      '10 毫秒时网络分区 [A] | [master]，不再恢复',
    ],
    [
      { kind: 'partition', at: 10, groups: [['A'], ['master']], healAt: 90, reset: true },
      'partition [A] | [master] at 10 ms, healed at 90 ms, resetting the connections it cuts',
      '10 毫秒时网络分区 [A] | [master]，90 毫秒恢复，并重置被切断的连接',
    ],
    [
      { kind: 'clock', at: 3, node: 'master', jumpMs: 500 },
      'master’s clock jumps +500 ms at 3 ms',
      'master 的时钟在 3 毫秒跳变 +500 毫秒',
    ],
    [{ kind: 'interrupt', at: 4, client: 'A', thread: 2 }, 'A:2 interrupted at 4 ms', 'A:2 在 4 毫秒被中断'],
    [
      { kind: 'latency', at: 5, ms: 503, endAt: 6, endpoints: ['master'] },
      'messages of master take 503 ms longer from 5 ms to 6 ms',
      '5 毫秒到 6 毫秒，master 的消息多花 503 毫秒',
    ],
    [
      { kind: 'latency', at: 5, ms: 20, endAt: 900 },
      'every message takes 20 ms longer from 5 ms to 900 ms',
      '5 毫秒到 900 毫秒，所有消息多花 20 毫秒',
    ],
    [{ kind: 'spike', at: 4 } as unknown as Fault, 'spike at 4 ms', '4 毫秒：spike'],
  ])('%j', (fault, en, zh) => {
    expect(describeFault(fault, tr('en'))).toBe(en);
    expect(describeFault(fault, tr('zh'))).toBe(zh);
  });
});

describe('describeChange', () => {
  it.each<[Change, string, string]>([
    [
      { kind: 'add', tag: 'pause', fault: { kind: 'pause', at: 2, client: 'B', ms: 9 } },
      '+',
      'B paused for 9 ms at 2 ms',
    ],
    [{ kind: 'move', index: 0, at: 2500 }, '~', 'A paused for 40000 ms at 2500 ms, moved from 1000 ms'],
    [{ kind: 'lag', replica: 1, lagMs: 900 }, '~', 'replica-1 replicates 900 ms late (was 40 ms)'],
  ])('%j', (change, sign, text) => {
    expect(describeChange(change, base, tr('en'))).toEqual({ sign, text });
  });
});
