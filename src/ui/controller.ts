/**
 * Orchestration between the store, the engine worker, the URL and localStorage. Every change of
 * scenario goes through `loadScenario`, which validates, runs (latest request wins) and keeps the
 * cursor at the same virtual time when the same scenario is re-run after an edit.
 */
import type { ScenarioDoc } from '../engine/scenario/edit';
import { engineClient, RunTimeoutError, RUN_TIMEOUT_MS } from './engine-client';
import { setExploreKinds } from './explore/store';
import { record, restore, takeRedo, takeUndo, type HistoryEntry } from './history';
import { detectLang, htmlLang, loadLang, type Lang } from './i18n';
import { speedOf } from './playback-speed';
import { eventCountOf, outlineOf } from './run-outline';
import { clampCursor, clockAt, indexAtTime, pushError, useLearn, usePlayground } from './store';
import {
  decodeHash,
  decodeLessonHash,
  decodeScenarioHash,
  encodeHash,
  extrasSuffix,
  isEmbed,
  MAX_NESTING,
  MAX_SCENARIO_BYTES,
  type ScenarioLink,
} from './url-state';
import { safeStorage } from './storage';
import { requestView, useViewWindow } from './view-window';
import { applyLinkViews, linkViews, useViews } from './topology/views';
import type { RunOutcome } from './worker-protocol';

const LS_SCENARIO = 'lockscope.scenario';
const LS_BUILTIN = 'lockscope.builtin';
const LS_LANG = 'lockscope.lang';
const LS_ORIGIN = 'lockscope.origin';

let runToken = 0;

export interface LoadOptions {
  builtinId?: string | null;
  /** event index to show after the run; default: keep the current virtual time if re-running an edit */
  cursor?: number | null;
  /** 'keep-time' for edits of the same scenario (fault drags, console writes, form fields) */
  keepTime?: boolean;
  persist?: boolean;
  /** what to do when the scenario is refused: the link case falls back to the default */
  onInvalid?: 'issues' | 'fallback';
  /** record script lines whatever the size (a lesson's cursor indexes its verbose run) */
  verbose?: boolean;
  /**
   * the built-in this document was made from; default: the built-in it is (builtinId), else the
   * current scenario's origin (an edit keeps it)
   */
  origin?: string | null;
  /** false: not an undoable step (undo/redo themselves, the first load, live drag re-runs) */
  history?: boolean;
}

export async function loadScenario(scenario: unknown, opts: LoadOptions = {}): Promise<boolean> {
  // Nesting that JSON.stringify cannot walk (an imported file, say) is refused by the same rule
  // as a link's; the stack overflow is that rule's only symptom here.
  let size: number;
  try {
    size = JSON.stringify(scenario ?? null).length;
  } catch {
    pushError({ key: 'error.tooDeep', params: { max: MAX_NESTING } });
    if (opts.onInvalid === 'fallback') await loadDefault();
    return false;
  }
  if (size > MAX_SCENARIO_BYTES) {
    pushError({ key: 'error.tooBig', params: { n: size, max: MAX_SCENARIO_BYTES } });
    if (opts.onInvalid === 'fallback') await loadDefault();
    return false;
  }
  const token = ++runToken;
  const keepClock = opts.keepTime ? clockAt(usePlayground.getState()) : null;
  // The worker validates and runs in one request, so an edit is validated once. The request
  // leaves before the page renders "running" (showRunning): the worker runs while the page renders.
  // `at`: the cursor chosen below, so the answer brings the state there and the inspectors show
  // it with the lanes.
  const requestedAt = performance.now();
  const answer = engineClient.run(scenario, {
    verbose: opts.verbose,
    at:
      opts.cursor != null
        ? { index: opts.cursor }
        : keepClock !== null
          ? { clock: keepClock }
          : { index: -1 },
  });
  const shown = showRunning(token, opts.keepTime === true && usePlayground.getState().run !== null);
  let outcome: RunOutcome;
  try {
    outcome = await answer;
  } catch (e) {
    clearTimeout(shown);
    if (token !== runToken) return false;
    usePlayground.setState({ running: false });
    await runFailed(e);
    return false;
  }
  clearTimeout(shown);
  if (token !== runToken) return outcome.ok;
  if (outcome.ok) {
    // User Timing for the performance spec: where a pick's time goes, the worker's side included.
    const { run, lanes, posted, received, validate } = outcome.timing;
    const transfer = performance.timeOrigin + performance.now() - posted;
    // `toWorker`: from the request to the worker taking it (behind another request, or its start)
    const toWorker = received === undefined ? undefined : received - performance.timeOrigin - requestedAt;
    performance.mark('lockscope:run', {
      detail: {
        requestedAt,
        toWorker,
        validate,
        run,
        lanes,
        transfer,
        events: eventCountOf(outcome),
      },
    });
  }
  if (!outcome.ok) {
    usePlayground.setState({ issues: outcome.issues, running: false });
    if (opts.onInvalid === 'fallback') {
      pushError({ key: 'error.link', detail: { key: 'error.linkSchema' }, issues: outcome.issues });
      await loadDefault();
    }
    return false;
  }
  // Validation accepted it, so it is a scenario document from here on.
  const doc = scenario as ScenarioDoc;
  const { ok: _ok, first, ...result } = outcome;
  const before = usePlayground.getState();
  if (opts.history !== false && before.scenario !== null && before.scenario !== doc) record(entryOf(before));
  const builtinId = opts.builtinId === undefined ? null : opts.builtinId;
  const originId =
    builtinId ?? (opts.origin !== undefined ? opts.origin : (before.builtinId ?? before.originId));
  usePlayground.setState((s) => {
    const next = { ...s, run: result };
    let c = -1;
    if (opts.cursor != null) c = opts.cursor;
    // the worker found the same index from the same clock (engine-host.ts): taking it spares the
    // page reading the events, which would parse them before the first draw
    else if (keepClock !== null) c = first?.index ?? indexAtTime(result.trace, keepClock);
    const nodes = result.model.nodes.map((n) => n.id);
    const cursor = clampCursor(next, c);
    // The worker lands a cursor as the page does (cursor-index.ts): its state there, else a pull
    const shown = first?.index === cursor ? first : null;
    return {
      scenario: doc,
      issues: [],
      builtinId,
      originId,
      // A new scenario plays in 10-20 s; an edit keeps the speed the viewer chose.
      ...(opts.keepTime ? {} : { speed: speedOf(result.outline ?? outlineOf(result.trace)) }),
      playing: false,
      run: result,
      running: false,
      cursor,
      selectedNode: nodes.includes(s.selectedNode) ? s.selectedNode : (nodes[0] ?? 'master'),
      visible: shown?.state ?? null,
      visibleIndex: shown?.index ?? -2,
    };
  });
  // the stored copy waits a task: the store's update above, and React's render of it, come
  // first; the paint may not (a frame can be later than the task), which costs the paint the
  // copy's JSON.stringify only when the two fall together
  if (opts.persist !== false) setTimeout(() => persistScenario(doc, builtinId, originId), 0);
  // The trace's events cross unparsed (worker-protocol.ts): the run on screen has them parsed in
  // the task after its first draw, ready before a reader's first move; a run overtaken by a newer
  // one by then (a drag's re-runs, a quick second pick) never is.
  setTimeout(() => {
    if (usePlayground.getState().run === result) void result.trace.events;
  }, 0);
  return true;
}

/**
 * A change to the scenario on screen (a load with keepTime while a run is shown: the form and
 * the JSON editor, the lane menu, fault handles, topology faults, the Console, undo and redo, a
 * lesson step's patch and its release) says "running" only once its run has taken a moment
 * (RUNNING_AFTER_MS): a status shown for a few ms is not read, and rendering it needs a frame
 * between the key and the answer, which the answer then waits behind (Chromium renders first
 * after an input), about 3-9 ms of an edit. Anything else (a pick, a link, a lesson step's own
 * scenario, the first run) says so at once. Returns the timer to clear when the answer comes.
 */
function showRunning(token: number, quietAtFirst: boolean): ReturnType<typeof setTimeout> | undefined {
  const startedAt = performance.now();
  // a later request's answer may have come first: it said "not running", and that stands
  const show = () => token === runToken && usePlayground.setState({ running: true, runStartedAt: startedAt });
  if (quietAtFirst) return setTimeout(show, RUNNING_AFTER_MS);
  show();
  return undefined;
}

/** How long an edit's run goes before the page says it is running. */
const RUNNING_AFTER_MS = 100;

function entryOf(s: { scenario: ScenarioDoc | null; builtinId: string | null; originId: string | null }) {
  return { scenario: s.scenario ?? {}, builtinId: s.builtinId, originId: s.originId };
}

async function travel(dir: 'undo' | 'redo'): Promise<void> {
  const s = usePlayground.getState();
  if (s.scenario === null) return;
  const current: HistoryEntry = entryOf(s);
  const entry = dir === 'undo' ? takeUndo(current) : takeRedo(current);
  if (!entry) return;
  const ok = await loadScenario(entry.scenario, {
    builtinId: entry.builtinId,
    origin: entry.originId,
    keepTime: true,
    history: false,
  });
  if (!ok) restore(dir, entry);
}

/** Marks the current document as an undo step now (a drag whose live re-runs are not steps). */
export function checkpoint(): void {
  const s = usePlayground.getState();
  if (s.scenario !== null) record(entryOf(s));
}

/** Back to the document before the last edit (or pick); the cursor keeps its time. */
export function undo(): Promise<void> {
  return travel('undo');
}

export function redo(): Promise<void> {
  return travel('redo');
}

/** The scenario the current one started from: its built-in, or the default when there is none. */
export async function resetToOrigin(): Promise<void> {
  const s = usePlayground.getState();
  await loadBuiltin(s.originId ?? s.builtinId ?? s.defaultId);
}

async function runFailed(e: unknown): Promise<void> {
  if (e instanceof RunTimeoutError) {
    pushError({ key: 'error.timeout', params: { s: RUN_TIMEOUT_MS / 1000 } });
    await loadDefault();
    return;
  }
  pushError({ key: 'error.run', params: { msg: e instanceof Error ? e.message : String(e) } });
  // Nothing to show yet (a shared link the engine cannot run): fall back to the default.
  const s = usePlayground.getState();
  if (!s.run && s.builtinId !== s.defaultId) await loadDefault();
}

export async function loadDefault(): Promise<void> {
  const s = usePlayground.getState();
  const b = s.builtins.find((x) => x.id === s.defaultId) ?? s.builtins[0];
  if (b) await loadScenario(b.scenario, { builtinId: b.id, persist: false });
}

export async function loadBuiltin(id: string): Promise<void> {
  const find = () => usePlayground.getState().builtins.find((x) => x.id === id);
  if (!find()) await ensureIncidents();
  const b = find();
  if (b) await loadScenario(b.scenario, { builtinId: b.id });
}

function persistScenario(scenario: unknown, builtinId: string | null, originId: string | null) {
  const ls = safeStorage();
  if (!ls) return;
  try {
    ls.setItem(LS_SCENARIO, JSON.stringify(scenario));
    if (builtinId) ls.setItem(LS_BUILTIN, builtinId);
    else ls.removeItem(LS_BUILTIN);
    if (originId) ls.setItem(LS_ORIGIN, originId);
    else ls.removeItem(LS_ORIGIN);
  } catch {
    // Storage full or disabled: the URL still carries the scenario.
  }
}

function showLang(lang: Lang): void {
  usePlayground.setState({ lang });
  document.documentElement.lang = htmlLang(lang);
}

/** `persist` false: a link's `&lang=` shows the page in that language without changing the reader's choice. */
export function setLang(lang: Lang, persist = true): void {
  loadLang(lang).then(
    () => showLang(lang),
    (e: unknown) =>
      pushError({ key: 'error.crash', params: { msg: e instanceof Error ? e.message : String(e) } }),
  );
  if (!persist) return;
  try {
    safeStorage()?.setItem(LS_LANG, lang);
  } catch {
    // Not persisted; the switch still applies to this page.
  }
}

/** The reader's language (stored choice, else the browser's), loaded before the first render so
 * a Chinese page never flashes English. */
export async function startLang(): Promise<void> {
  const lang = detectLang(safeStorage()?.getItem(LS_LANG) ?? null, navigator.language);
  try {
    await loadLang(lang);
    showLang(lang);
  } catch {
    // Its table did not load (offline after an update): the page stays in English.
  }
}

/** Cache of the compressed scenario so cursor moves don't recompress it. */
let hashCache: { scenario: unknown; prefix: string } | null = null;

export function currentHash(): string {
  const s = usePlayground.getState();
  if (s.scenario === null) return '';
  if (!hashCache || hashCache.scenario !== s.scenario) {
    const full = encodeHash(s.scenario, 0);
    hashCache = { scenario: s.scenario, prefix: full.slice(0, full.lastIndexOf('&c=')) };
  }
  const view = useViewWindow.getState().view ?? undefined;
  const origin = s.builtinId === null ? (s.originId ?? undefined) : undefined;
  return `${hashCache.prefix}&c=${s.cursor}${extrasSuffix({ view, origin, predict: s.predict, ...linkViews() })}`;
}

/** The hash this page last wrote or opened: a hashchange to anything else is a pasted link. */
let ownHash = '';

function startUrlSync() {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const schedule = () => {
    // An open lesson keeps its own link (#lesson=…&step=…).
    if (timer || useLearn.getState().lessonId !== null) return;
    const seen = window.location.hash;
    timer = setTimeout(() => {
      timer = null;
      // A hash changed since (a link pasted into the address bar, its hashchange not yet handled
      // on a busy page; a lesson's own link) is not overwritten: the page opens it, and the state
      // it opens schedules the next update.
      if (window.location.hash !== seen || useLearn.getState().lessonId !== null) return;
      const hash = currentHash();
      if (hash && hash !== window.location.hash) {
        ownHash = hash;
        history.replaceState(null, '', `${window.location.pathname}${window.location.search}${hash}`);
      }
    }, 150);
  };
  usePlayground.subscribe((s, prev) => {
    if (
      s.scenario === prev.scenario &&
      s.cursor === prev.cursor &&
      s.originId === prev.originId &&
      s.predict === prev.predict
    )
      return;
    schedule();
  });
  useViewWindow.subscribe((s, prev) => {
    if (s.view !== prev.view) schedule();
  });
  useViews.subscribe(schedule);
  // A link pasted into the address bar of an open tab changes only the hash: open it here.
  window.addEventListener('hashchange', () => {
    const hash = window.location.hash;
    // Not compared with currentHash(): while a pick is still running, the state can still be
    // the very scenario the pasted link names.
    if (hash === ownHash) return;
    ownHash = hash;
    void openLink(hash);
  });
}

let incidentsLoaded: Promise<void> | null = null;

/**
 * The rest of the built-ins (the first screen has the default alone) and the real incidents join
 * the list, in the library's order, once the worker has loaded them: after the first screen, or
 * before it when a link, a saved scenario or a lesson's step may name one. A failure leaves them
 * out and says so; the next call tries again.
 */
export function ensureIncidents(): Promise<void> {
  incidentsLoaded ??= engineClient.incidents().then(
    (list) =>
      usePlayground.setState((s) => {
        const known = new Set(list.map((b) => b.id));
        return { builtins: [...list, ...s.builtins.filter((b) => !known.has(b.id))] };
      }),
    (e: unknown) => {
      incidentsLoaded = null;
      pushError({ key: 'error.run', params: { msg: e instanceof Error ? e.message : String(e) } });
    },
  );
  return incidentsLoaded;
}

/** Opens a link's scenario, cursor and zoom; 'none' when the hash carries no scenario. */
async function openLink(hash: string): Promise<'none' | 'done'> {
  if (hash.length > 1) await ensureIncidents();
  const named = decodeScenarioHash(hash);
  if (named !== null) return openScenarioLink(named);
  const link = decodeHash(hash);
  if (link.kind === 'none') return 'none';
  if (link.kind === 'ok') applyLinkViews(link);
  if (link.kind === 'bad') {
    pushError({ key: 'error.link', detail: link.problem });
    await loadDefault();
    return 'done';
  }
  const builtinId = matchBuiltin(link.scenario);
  const known = usePlayground.getState().builtins.some((b) => b.id === link.origin);
  const ok = await loadScenario(link.scenario, {
    cursor: link.cursor,
    builtinId,
    origin: builtinId ?? (known ? (link.origin ?? null) : null),
    onInvalid: 'fallback',
  });
  if (ok && link.view) requestView(link.view[0], link.view[1]);
  if (ok) usePlayground.setState({ predict: link.predict === true });
  return 'done';
}

/** `#scenario=<id>`: the built-in as it is, at its cursor (its end when none), in the link's language. */
async function openScenarioLink(link: ScenarioLink): Promise<'done'> {
  if (link.lang) setLang(link.lang, false);
  const b = usePlayground.getState().builtins.find((x) => x.id === link.id);
  if (!b) {
    pushError({ key: 'error.link', detail: { key: 'error.unknownBuiltin', params: { id: link.id } } });
    await loadDefault();
    return 'done';
  }
  const ok = await loadScenario(b.scenario, { builtinId: b.id, cursor: link.cursor ?? null });
  if (ok) usePlayground.setState({ predict: link.predict === true });
  return 'done';
}

function startVisibleSync() {
  let inflight = false;
  const pull = async () => {
    if (inflight) return;
    const s = usePlayground.getState();
    if (!s.run || s.visibleIndex === s.cursor) return;
    inflight = true;
    const runId = s.run.runId;
    const index = s.cursor;
    try {
      const visible = await engineClient.stateAt(runId, index);
      if (usePlayground.getState().run?.runId === runId)
        usePlayground.setState({ visible, visibleIndex: index });
    } catch {
      // The run was replaced (new run or worker restart); the next change pulls again.
    } finally {
      inflight = false;
    }
    // The cursor may have moved while we waited: latest wins.
    const now = usePlayground.getState();
    if (now.run?.runId === runId && now.cursor !== index) void pull();
  };
  // While playing, the inspectors follow at 10 Hz: enough to read, and the frames stay free.
  let throttle: ReturnType<typeof setTimeout> | null = null;
  usePlayground.subscribe((s, prev) => {
    if (s.cursor === prev.cursor && s.run === prev.run) return;
    if (!s.playing || s.run !== prev.run) {
      void pull();
      return;
    }
    throttle ??= setTimeout(() => {
      throttle = null;
      void pull();
    }, 100);
  });
}

let booted = false;

export async function boot(): Promise<void> {
  if (booted) return;
  booted = true;
  const ls = safeStorage();
  usePlayground.setState({ embed: isEmbed(window.location.search) });
  startUrlSync();
  startVisibleSync();

  try {
    const init = await engineClient.init();
    usePlayground.setState({
      builtins: init.builtins,
      defaultId: init.defaultId,
      engineReady: init.engineReady,
    });
    setExploreKinds(init.exploreKinds);
  } catch (e) {
    pushError({ key: 'error.run', params: { msg: e instanceof Error ? e.message : String(e) } });
    return;
  }

  ownHash = window.location.hash;
  try {
    await openFirst(ls);
  } finally {
    loadIncidentsSoon();
  }
}

/**
 * After the first screen is shown, the other built-ins and the incidents' stories wait for the
 * first interaction or this long and an idle moment. Since the other core built-ins moved into
 * the same chunk (issue 23, fourth pass) the picker lists them only once it has loaded: 1.5 s
 * left the picker with one entry for that long, so it is a short wait now.
 */
const INCIDENTS_AFTER_MS = 500;

/**
 * The other built-ins and the gallery's stories (about 42 KB gzip) load at the reader's first
 * interaction with the page (the picker, the search box, a key), or once it has been idle for a
 * moment after the first screen, whichever comes first: never on the first screen's path.
 */
function loadIncidentsSoon(): void {
  const events = ['pointerdown', 'keydown', 'focusin'] as const;
  const go = () => {
    for (const e of events) window.removeEventListener(e, go, true);
    void ensureIncidents();
  };
  for (const e of events) window.addEventListener(e, go, true);
  setTimeout(() => {
    if (window.requestIdleCallback) window.requestIdleCallback(go, { timeout: 700 });
    else go();
  }, INCIDENTS_AFTER_MS);
}

async function openFirst(ls: Storage | null): Promise<void> {
  // The lesson player loads a lesson link's scenarios itself.
  const hash = window.location.hash;
  if (decodeLessonHash(hash) !== null) return;
  // Without a link, nothing is awaited before the default's run request leaves: an await here
  // would let React render the new list of built-ins first (its microtask is queued ahead).
  if (hash.length > 1 && (await openLink(hash)) === 'done') return;
  const saved = ls?.getItem(LS_SCENARIO);
  if (saved) {
    await ensureIncidents();
    try {
      const scenario = JSON.parse(saved) as unknown;
      const opts = { builtinId: ls?.getItem(LS_BUILTIN) ?? null, origin: ls?.getItem(LS_ORIGIN) ?? null };
      if (await loadScenario(scenario, opts)) return;
    } catch {
      // A damaged saved scenario is simply forgotten.
    }
    usePlayground.setState({ issues: [] });
  }
  await loadDefault();
}

function matchBuiltin(scenario: unknown): string | null {
  const text = JSON.stringify(scenario);
  return usePlayground.getState().builtins.find((b) => JSON.stringify(b.scenario) === text)?.id ?? null;
}
