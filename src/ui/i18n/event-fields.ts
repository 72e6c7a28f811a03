import type { EventKind, TraceEventMap } from '../../engine/trace/types';

/**
 * Chinese names for the fields of a trace event, for the event panel and the timeline's tooltip
 * in 中文 (D27). The raw event under the caption keeps the trace's own field names. A field not
 * listed keeps its name.
 */
export const EVENT_FIELDS_ZH: Readonly<Record<string, string>> = {
  accepted: '已接受',
  acked: '已确认',
  agree: '同意数',
  args: 'ARGV',
  argv: '参数',
  by: '执行者',
  capacity: '容量',
  cause: '原因',
  causeSeq: '起因事件',
  channel: '频道',
  client: '客户端',
  clientHolds: '线程计数',
  command: '命令',
  conn: '连接',
  critical: '临界区',
  delayMs: '延迟（毫秒）',
  endpoints: '端点',
  epoch: '纪元',
  erased: '已抹去',
  error: '错误',
  exception: '异常',
  from: '原主节点',
  groups: '分组',
  holdCount: '持有次数',
  holders: '持有者',
  how: '方式',
  jumpMs: '跳变（毫秒）',
  key: '键',
  keys: 'KEYS',
  leaseMs: '租期（毫秒）',
  level: '级别',
  line: '行',
  lockName: '锁名',
  lostUpdate: '更新丢失',
  master: '主节点',
  message: '消息',
  ms: '时长（毫秒）',
  observer: '观察者',
  offset: '偏移量',
  op: '操作',
  outcome: '结果',
  owner: '持有者',
  owners: '持有者',
  pending: '待回复',
  polling: '轮询',
  serverHolds: '服务器计数',
  timeoutMs: '超时（毫秒）',
  quorum: '法定人数',
  rank: '排名',
  resubscribe: '重新订阅',
  read: '读到',
  readAt: '读取时刻',
  reason: '原因',
  receivers: '接收者',
  replica: '从节点',
  reply: '回复',
  reports: '报告',
  result: '结果',
  role: '角色',
  script: '脚本',
  sentinel: '哨兵',
  sha: 'SHA1',
  slots: '槽',
  state: '状态',
  step: '步骤',
  timer: '定时器',
  token: '令牌',
  used: '已用',
  ttl: 'TTL',
  type: '类型',
  validityMs: '有效期（毫秒）',
  value: '值',
  violation: '违规',
  votes: '票数',
  waitMs: '等待（毫秒）',
  waitedMs: '已等待（毫秒）',
  waiting: '等待者',
  write: '写入',
};

/**
 * The fields whose value is one of a few words, by event kind: in 中文 they show through
 * `value.<field>.<value>` (a boolean or null through `value.<value>`, on any event). The other
 * fields carry names, ids, keys, numbers or Redis's and Java's own text, shown as they are.
 */
const ENUM_FIELDS: { readonly [K in EventKind]?: readonly (keyof TraceEventMap[K] & string)[] } = {
  'key.expired': ['how'],
  'node.role': ['role'],
  'cluster.state': ['state'],
  'thread.done': ['outcome'],
  'work.start': ['op'],
  'waiter.wakeup': ['cause'],
  'watchdog.renew': ['result'],
  'watchdog.cancel': ['reason'],
  'pubsub.timeout': ['reason'],
  'violation.start': ['cause'],
  'violation.end': ['cause'],
};

/** The message key naming an event kind. */
export const kindKey = (kind: string) => `kind.${kind}`;

/** The message key for a field's value, or null when the value is shown as it is. */
export function valueKey(kind: EventKind, field: string, v: unknown): string | null {
  if (field === 'reply') return null; // Redis's own: nil is "(nil)" in any language
  if (typeof v === 'boolean' || v === null) return `value.${String(v)}`;
  const fields: readonly string[] | undefined = ENUM_FIELDS[kind];
  return fields?.includes(field) ? `value.${field}.${String(v)}` : null;
}
