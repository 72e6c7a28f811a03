/**
 * The Explore panel's own store: the options chosen, the search under way, and what it found.
 * Its own store, so a progress tick re-renders the panel and nothing else.
 */
import { create } from 'zustand';
import type { ScenarioDoc } from '../../engine/scenario/edit';
import type { Violation } from '../../engine/trace/types';
import type { SearchPhase } from './coordinator';
import type { SearchOptions, SearchScope, ShrinkOutcome } from './protocol';

export interface ExploreFound {
  /** the scenario the search started from (what undo returns to) */
  base: ScenarioDoc;
  /** the minimal counterexample, as loaded into the playground */
  scenario: ScenarioDoc;
  violation: Violation;
  shrunk: ShrinkOutcome;
  /** the first violating schedule's index: the lowest, whatever the number of workers */
  index: number;
  tried: number;
  seconds: number;
}

export interface ExploreNothing {
  tried: number;
  budget: number;
  seed: number;
  scope: SearchScope;
  seconds: number;
}

export type ExploreStatus =
  | { phase: 'idle' }
  | { phase: SearchPhase; tried: number; hits: number; shards: number; startedAt: number; perSec: number }
  | { phase: 'found'; found: ExploreFound }
  | { phase: 'nothing'; nothing: ExploreNothing }
  | { phase: 'cancelled'; tried: number }
  | { phase: 'error'; message: string };

export interface ExploreState {
  /** the kinds of change the engine can make (from the worker's init), in its order */
  kinds: string[];
  open: boolean;
  options: SearchOptions;
  status: ExploreStatus;
  /** the lesson step that opened the panel, if any (its prompt is shown above the form) */
  prompt: { en: string; zh: string } | null;
}

export const DEFAULT_BUDGET = 2000;
export const MAX_BUDGET = 1_000_000;

export const useExplore = create<ExploreState>()(() => ({
  kinds: [],
  open: false,
  options: { budget: DEFAULT_BUDGET, seed: 1, faults: [] },
  status: { phase: 'idle' },
  prompt: null,
}));

/** The engine's kinds, all chosen by default: each schedule then enables a random subset. */
export function setExploreKinds(kinds: string[]): void {
  useExplore.setState((s) => ({ kinds, options: { ...s.options, faults: [...kinds] } }));
}

export function isSearching(s: ExploreState): boolean {
  const p = s.status.phase;
  return p === 'planning' || p === 'searching' || p === 'shrinking';
}

/** Opens the panel (with a lesson's preset and prompt); what runs a search loads with the panel. */
export function openExplore(
  preset: Partial<SearchOptions> = {},
  prompt: ExploreState['prompt'] = null,
): void {
  useExplore.setState((s) => ({
    open: true,
    prompt,
    options: { ...s.options, ...preset },
    status: isSearching(s) ? s.status : { phase: 'idle' },
  }));
}
