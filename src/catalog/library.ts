import { basename, dirname, join, resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import { partition, type Shard } from "../shard/index.js";
import { catalogRunIdentity } from "./catalog-folder.js";
import { type CatalogMember, discoverCatalog } from "./discover.js";
import { type CatalogRunSpec, planCatalogRuns } from "./plan.js";

/** A catalog folder checked before anything runs: its skills, the folders left out, where the catalogs go. */
export interface CatalogLibraryInput {
  root: string;
  members: CatalogMember[];
  /** Folders inside it without a SKILL.md: said, not silently left out. */
  skipped: string[];
  workspace: string;
}

function checkOnly(members: readonly CatalogMember[], only: readonly string[] | undefined): void {
  const unknown = (only ?? []).filter((name) => !members.some((m) => m.name === name));
  if (unknown.length > 0)
    throw new SkillgymError("USAGE", `--only names skills the catalog does not have: ${unknown.join(", ")}`, {
      hint: `the catalog's skills: ${members.map((m) => m.name).join(", ")}`,
    });
}

/** The folder's skills, every one valid, with a query to ask among those `--only` names; throws otherwise. */
export async function openCatalogLibrary(options: {
  dir: string;
  workspace?: string;
  only?: string[];
}): Promise<CatalogLibraryInput> {
  const root = resolve(options.dir);
  const { members, skipped } = await discoverCatalog(root);
  checkOnly(members, options.only);
  if (!members.some((m) => m.queries.length > 0 && (!options.only || options.only.includes(m.name))))
    throw new SkillgymError("NO_EVALS", `no skill in ${root} has trigger queries to ask`, {
      hint: "give at least one skill an evals/triggers.json",
    });
  const workspace = resolve(options.workspace ?? join(dirname(root), `${basename(root)}-workspace`));
  return { root, members, skipped, workspace };
}

/** Every run of the plan, and the part this shard makes (all of them without `--shard`). */
export function catalogSpecs(
  members: readonly CatalogMember[],
  options: { runs: number; only?: string[]; shard?: Shard },
  catalogDir: string,
): { planned: CatalogRunSpec[]; specs: CatalogRunSpec[] } {
  const planned = planCatalogRuns(members, options.runs, catalogDir, options.only);
  return {
    planned,
    specs: options.shard ? partition(planned, catalogRunIdentity, options.shard) : planned,
  };
}
