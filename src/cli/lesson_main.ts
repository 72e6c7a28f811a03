/**
 * The `npm run lesson` command as a function (src/cli/lesson.ts is its process entry):
 *   npm run -s lesson -- <id|all> [--json]
 *
 * Plays lessons against the engine. Text: each step's English text, its cursor time and its
 * checks. JSON: per step its claims, text, cursor, the state there, the violations begun by then,
 * the verbose events since the previous step's cursor and the checks. Exit 1 when any check,
 * question or task fails; 2 on bad usage or an unknown id.
 */
import { evaluateLesson, RunCache, type LessonResult } from '../lessons/evaluate';
import { lessonCatalog, type LessonEntry } from '../lessons/index';
import { resolveLessonRefs } from '../lessons/refs';
import type { CliIo } from './sim_main';

const USAGE = 'usage: npm run -s lesson -- <id|all> [--json]';

function toJson(r: LessonResult) {
  return {
    id: r.lesson.id,
    title: r.lesson.title,
    ...(r.lesson.coming === true ? { coming: true } : {}),
    steps: r.steps.map((s) => ({
      claims: s.step.claims,
      text: s.step.text,
      ...(s.pending !== undefined ? { pending: s.pending } : {}),
      at: s.at ?? null,
      state: s.state ?? null,
      violations: s.violations ?? [],
      events: s.events ?? [],
      checks: s.checks,
    })),
  };
}

function toText(r: LessonResult): string[] {
  const out = [
    `# ${r.lesson.id}: ${r.lesson.title.en} (${r.lesson.minutes} min)${r.lesson.coming ? ' [coming]' : ''}`,
  ];
  r.steps.forEach((s, i) => {
    const where =
      s.pending !== undefined
        ? `pending: ${s.pending}`
        : s.at === undefined
          ? 'no cursor'
          : `t=${s.at.t} seq=${s.at.seq}`;
    out.push('', `## step ${i + 1} [${s.step.claims.join(' ')}] ${where}`, resolveLessonRefs(s.step.text.en));
    for (const c of s.checks) out.push(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.what}`);
  });
  return out;
}

export async function lessonMain(
  argv: string[],
  io: CliIo,
  catalog: readonly LessonEntry[] = lessonCatalog,
): Promise<number> {
  const flags = argv.filter((a) => a.startsWith('--'));
  const rest = argv.filter((a) => !a.startsWith('--'));
  const bad = flags.find((f) => f !== '--json');
  if (bad !== undefined || rest.length !== 1) {
    io.err(`${bad === undefined ? '' : `unknown option ${bad}\n`}${USAGE}\n`);
    return 2;
  }
  const entries = rest[0] === 'all' ? catalog : catalog.filter((e) => e.id === rest[0]);
  if (entries.length === 0) {
    io.err(`lesson: unknown lesson "${rest[0]}" (${catalog.map((e) => e.id).join(', ')}, all)\n`);
    return 2;
  }
  const cache = new RunCache();
  const results: LessonResult[] = [];
  for (const e of entries) results.push(evaluateLesson(await e.load(), cache));
  if (flags.includes('--json')) io.out(`${JSON.stringify({ lessons: results.map(toJson) })}\n`);
  else io.out(`${results.flatMap(toText).join('\n')}\n`);
  return results.every((r) => r.ok) ? 0 : 1;
}
