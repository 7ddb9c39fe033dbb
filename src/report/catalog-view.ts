import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { CatalogResults } from "../contracts/catalog.js";
import type { ViewReader } from "./iteration-data.js";
import type { CatalogsView } from "./view-model.js";

const CATALOG = /^catalog-(\d+)$/;

/** The names of the `catalog-<N>/` folders in a folder, oldest first. */
export async function catalogFolders(dir: string): Promise<{ number: number; name: string }[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .flatMap((e) => {
      const match = CATALOG.exec(e.name);
      return e.isDirectory() && match ? [{ number: Number(match[1]), name: e.name }] : [];
    })
    .sort((a, b) => a.number - b.number);
}

/** Every catalog the workspace holds, newest first, for the Catalog tab. */
export async function readCatalogsView(reader: ViewReader): Promise<CatalogsView> {
  const folders = await catalogFolders(reader.target.root);
  const catalogs = await Promise.all(
    folders.reverse().map(async ({ number, name }) => {
      const results = await reader.cache.value(
        join(reader.target.root, name, "catalog.json"),
        CatalogResults,
      );
      return {
        number,
        name,
        results: results ?? null,
        problem: results ? null : `${name}/catalog.json is missing or not valid (an interrupted catalog?)`,
      };
    }),
  );
  return { catalogs };
}
