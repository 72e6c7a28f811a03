/**
 * A lesson step's task ("your turn"): the prompt and goal, the controls for the change it asks
 * for, and what the learner's latest run got: done, a dodge's "that works, but…", or, for a task
 * graded by the violation search, the search's progress and the counterexample it found.
 */
import type { ReactNode } from 'react';
import { readPointer } from '../../lessons/patch';
import type { Step, TaskControl, TaskSearch } from '../../lessons/types';
import { describeChange } from '../explore/describe';
import { useT } from '../hooks/useT';
import type { Lang } from '../i18n';
import { usePlayground } from '../store';
import { encodeHash, shareUrl } from '../url-state';
import { Markdown } from './Markdown';
import { gradeTask, resetTask, setTaskPaths, usePlayer, type TaskStatus } from './player';
import { useTaskSearch } from './task-search';
import { taskStatusLine } from './task-status';

/** What the search that grades the task tried, is trying, or found on the learner's scenario. */
function SearchGrade({ search, status }: { search: TaskSearch; status: TaskStatus }) {
  const t = useT();
  const s = useTaskSearch((x) => x.status);
  let phase: string = 'idle';
  let body: ReactNode = null;
  if (status === 'searching' && s.phase === 'running') {
    phase = 'running';
    body = (
      <>
        <p>
          {s.stage === 'shrinking'
            ? t('learn.taskSearchShrinking')
            : t('learn.taskSearching', { tried: s.tried, budget: s.budget })}
        </p>
        <progress max={s.budget} value={s.tried} />
      </>
    );
  } else if (status === 'broken' && s.phase === 'found') {
    phase = 'found';
    const v = s.shrunk.violation;
    body = (
      <>
        <p>
          <strong>
            {t('learn.taskBroken', { kind: v.kind, lock: v.lock, index: s.index, tried: s.tried })}
          </strong>
        </p>
        <p>{t('learn.taskSchedule')}</p>
        <ul className="lesson__schedule" data-testid="task-schedule">
          {s.shrunk.changes.map((c, i) => {
            const line = describeChange(c, s.shrunk, t);
            return (
              <li key={i}>
                {line.sign} {line.text}
              </li>
            );
          })}
        </ul>
        <a
          href={shareUrl(window.location, encodeHash(s.shrunk.scenario, 0))}
          target="_blank"
          rel="noreferrer"
          data-testid="task-counterexample"
        >
          {t('learn.taskOpenCounterexample')}
        </a>
      </>
    );
  } else if ((status === 'done' || status === 'notyet') && s.phase === 'clean') {
    phase = 'clean';
    body = (
      <p>
        {t(status === 'done' ? 'learn.taskSearchClean' : 'learn.taskSearchCleanNotGoal', { tried: s.tried })}
      </p>
    );
  } else if (s.phase === 'error') {
    phase = 'error';
    body = <p className="learn__error">{t('learn.taskSearchError', { msg: s.message })}</p>;
  }
  return (
    <div
      className={`lesson__search${phase === 'found' ? ' lesson__search--found' : ''}`}
      data-testid="task-search"
      data-phase={phase}
      role="status"
    >
      <p className="muted lesson__search-scope">
        {t('learn.taskSearchScope', {
          budget: search.budget,
          seed: search.seed,
          kinds: search.violations.join(', '),
        })}
      </p>
      {body}
      {status === 'idle' && (
        <button
          type="button"
          className="btn btn--small"
          data-testid="task-search-run"
          onClick={() => gradeTask()}
        >
          {t('learn.taskSearchRun')}
        </button>
      )}
    </div>
  );
}

/** One control for the change a task asks for, reading and writing the scenario on screen. */
function TaskControlView({ control, lang }: { control: TaskControl; lang: Lang }) {
  const scenario = usePlayground((s) => s.scenario);
  const current = readPointer(scenario, control.paths[0]);
  const label = <Markdown className="lesson__control-label" text={control.label[lang]} />;
  if (control.kind === 'toggle') {
    const on = JSON.stringify(current) === JSON.stringify(control.value);
    return (
      <label className="lesson__control">
        <input
          type="checkbox"
          data-testid="task-control"
          checked={on}
          onChange={(e) => void setTaskPaths(control.paths, e.target.checked ? control.value : control.off)}
        />
        {label}
      </label>
    );
  }
  if (control.kind === 'select') {
    return (
      <label className="lesson__control">
        {label}
        <select
          data-testid="task-control"
          // absent: the scenario's default, which each control lists first
          value={typeof current === 'string' ? current : (control.options?.[0] ?? '')}
          onChange={(e) => void setTaskPaths(control.paths, e.target.value)}
        >
          {(control.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const commit = (raw: string) => {
    const n = raw.trim() === '' ? undefined : Number(raw);
    if (n !== undefined && !Number.isInteger(n)) return;
    if (n !== current) void setTaskPaths(control.paths, n);
  };
  return (
    <label className="lesson__control">
      {label}
      <input
        type="number"
        step={100}
        data-testid="task-control"
        key={String(current)}
        defaultValue={typeof current === 'number' ? current : ''}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit((e.target as HTMLInputElement).value);
        }}
      />
    </label>
  );
}

export function Task({ step, lang }: { step: Step; lang: Lang }) {
  const t = useT();
  const status = usePlayer((s) => s.task);
  const dodgeAt = usePlayer((s) => s.taskDodge);
  const verdict = usePlayer((s) => s.taskVerdict);
  const task = step.task!;
  const dodge = status === 'dodge' && dodgeAt !== null ? task.dodges?.[dodgeAt] : undefined;
  return (
    <div className="lesson__task">
      <div className="lesson__label">{t('learn.task')}</div>
      <Markdown text={task.prompt[lang]} />
      <div className="lesson__goal">
        <strong>{t('learn.goal')}</strong> <Markdown text={task.goalText[lang]} />
      </div>
      {task.controls !== undefined && (
        <div className="lesson__controls" data-testid="task-controls">
          {task.controls.map((c, i) => (
            <TaskControlView key={i} control={c} lang={lang} />
          ))}
        </div>
      )}
      {task.hint && (
        <details className="lesson__hint">
          <summary>{t('learn.hint')}</summary>
          <Markdown text={task.hint[lang]} />
        </details>
      )}
      {task.search !== undefined && <SearchGrade search={task.search} status={status} />}
      {status === 'done' ? (
        <div className="lesson__done" data-testid="lesson-task-done" role="status">
          <strong>{t('learn.taskDone')}</strong> <Markdown text={task.success[lang]} />
        </div>
      ) : dodge !== undefined ? (
        <div className="lesson__dodge" data-testid="lesson-task-dodge" role="status">
          <Markdown text={dodge.why[lang]} />
        </div>
      ) : (
        <p className="muted lesson__status" role="status">
          {taskStatusLine(status, verdict, task.controls !== undefined, t)}
        </p>
      )}
      {status !== 'idle' && (
        <button type="button" className="btn btn--small" onClick={() => void resetTask()}>
          {t('learn.taskReset')}
        </button>
      )}
    </div>
  );
}
