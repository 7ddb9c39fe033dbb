import { readdir } from "node:fs/promises";
import { SkillgymError } from "../errors.js";

const CATALOG_MARKS = ["catalog-plan.json", "catalog.json"];

// A catalog's shards hold no iteration; the result store joins them instead, so merge names that path.
export async function refuseCatalogFolder(source: string, dir: string): Promise<void> {
  const own = await readdir(dir).catch(() => [] as string[]);
  const isCatalog =
    own.some((name) => CATALOG_MARKS.includes(name)) ||
    (own.some((name) => /^catalog-\d+$/.test(name)) && !own.some((name) => /^iteration-\d+$/.test(name)));
  if (isCatalog)
    throw new SkillgymError(
      "BAD_INPUT",
      `${source} is a catalog folder; merge joins eval and trigger shards only`,
      {
        file: source,
        hint: "join a catalog's shards by running `skillgym catalog <dir> --cache <the shards' shared store>` without --shard: every run the shards made is served from the store, free",
      },
    );
}
