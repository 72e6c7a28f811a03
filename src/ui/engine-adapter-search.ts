/**
 * The search's entry points (issue 12), for the search shards (explore/shard.ts, loaded by
 * worker.ts on the first search request) and nothing else: apart from engine-adapter.ts so the
 * engine worker's first chunk does not carry the search.
 */
export {
  applyChanges,
  planSearch,
  searchRange,
  shrink,
  variantAt,
  type Change,
  type ExploreFaultKind,
  type SearchPlan,
} from '../engine/explore';
