/** The gallery of real incidents: one module per family, in the order of docs/incidents.md. */
import type { BuiltinScenario } from '../types';
import { incidentsUnlock } from './unlock';

export const incidents: readonly BuiltinScenario[] = [...incidentsUnlock];
