import { join } from "node:path";
import { syntheticName } from "../triggers/index.js";
import type { CatalogMember } from "./discover.js";

/** One run of one skill's query, with every catalog skill installed under a name unique to this run. */
export interface CatalogRunSpec {
  owner: string;
  queryIndex: number;
  query: string;
  shouldTrigger: boolean;
  runNumber: number;
  /** The skill's own name → its install name in this run. */
  installNames: Record<string, string>;
  /** `catalog-<N>/<owner>/query-<i>/run-<k>/` */
  runDir: string;
}

/** Every query of every skill asked (or of the `only` ones), `runs` times; run k of every query before run k+1. */
export function planCatalogRuns(
  members: readonly CatalogMember[],
  runs: number,
  catalogDir: string,
  only?: readonly string[],
): CatalogRunSpec[] {
  const owners = members.filter((m) => !only || only.includes(m.name));
  const specs: CatalogRunSpec[] = [];
  for (let runNumber = 1; runNumber <= runs; runNumber++) {
    for (const owner of owners) {
      owner.queries.forEach((q, queryIndex) => {
        specs.push({
          owner: owner.name,
          queryIndex,
          query: q.query,
          shouldTrigger: q.should_trigger,
          runNumber,
          installNames: Object.fromEntries(members.map((m) => [m.name, syntheticName(m.name)])),
          runDir: join(catalogDir, owner.name, `query-${queryIndex + 1}`, `run-${runNumber}`),
        });
      });
    }
  }
  return specs;
}
