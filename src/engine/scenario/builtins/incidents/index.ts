/** The gallery of real incidents: one module per family, in the order of docs/incidents.md. */
import type { BuiltinScenario } from '../types';
import { incidentsDesign } from './design';
import { incidentsFailover } from './failover';
import { incidentsFair } from './fair';
import { incidentsSubscription } from './subscription';
import { incidentsTransaction } from './transaction';
import { incidentsUnlock } from './unlock';
import { incidentsWatchdog } from './watchdog';

export const incidents: readonly BuiltinScenario[] = [
  ...incidentsUnlock,
  ...incidentsWatchdog,
  ...incidentsFair,
  ...incidentsFailover,
  ...incidentsSubscription,
  ...incidentsDesign,
  ...incidentsTransaction,
];
