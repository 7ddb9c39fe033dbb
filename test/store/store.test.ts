import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const source = { iteration: "iteration-1", run: "eval-1/with_skill/run-1", workspace: "/ws", cost_usd: 0.5 };

async function runFolder(name: string, body: string): Promise<string> {
  const runDir = join(dir, name);
  await writeTree(runDir, { "timing.json": `{"outcome":"success","body":"${body}"}`, "outputs/a.txt": body });
  return runDir;
}

describe("the result store", () => {
  it("gives back what was put, and nothing for an unknown key or under --fresh", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "k1", { runDir: await runFolder("r", "x".repeat(1000)), source });
    const got = await store.get("eval-run", "k1");
    expect(got?.entry.source).toEqual(source);
    expect(got?.entry.files.map((f) => f.path)).toEqual(["outputs/a.txt", "timing.json"]);
    expect(await store.get("eval-run", "k2")).toBeUndefined();
    expect(await store.get("trigger-run", "k1")).toBeUndefined();
    expect(await openStore({ dir: join(dir, "cache"), fresh: true }).get("eval-run", "k1")).toBeUndefined();
  });

  it.skipIf(process.platform === "win32")(
    "keeps an output whose name holds a backslash under that name",
    async () => {
      const store = openStore({ dir: join(dir, "cache") });
      const runDir = join(dir, "r");
      await writeTree(runDir, { "timing.json": "{}", "outputs/notes\\v1.md": "notes" });
      await store.put("eval-run", "k1", { runDir, source });
      const got = await store.get("eval-run", "k1");
      expect(got?.entry.files.map((f) => f.path)).toEqual(["outputs/notes\\v1.md", "timing.json"]);
      expect(await readFile(join(got?.filesDir ?? "", "outputs", "notes\\v1.md"), "utf8")).toBe("notes");
    },
  );

  it("ignores an entry with a truncated record, a missing output, or another format version", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    const entryDir = join(dir, "cache", "v1", "eval-run", "k1", "k1");
    for (const damage of ["truncate", "missing", "format"] as const) {
      await store.put("eval-run", "k1", { runDir: await runFolder(`r-${damage}`, "hello"), source });
      expect(await store.get("eval-run", "k1")).toBeDefined();
      const entry = join(entryDir, "entry.json");
      if (damage === "truncate") await writeFile(entry, (await readFile(entry, "utf8")).slice(0, 40));
      if (damage === "missing") await writeFile(join(entryDir, "run", "outputs", "a.txt"), "");
      if (damage === "format")
        await writeFile(entry, (await readFile(entry, "utf8")).replace('"format": 1', '"format": 2'));
      expect(await store.get("eval-run", "k1"), damage).toBeUndefined();
      // Writing again replaces the damaged entry.
      await store.put("eval-run", "k1", { runDir: await runFolder(`r2-${damage}`, "again"), source });
      expect(await store.get("eval-run", "k1")).toBeDefined();
    }
  });

  it("leaves no half-written entry when two processes write the same keys at once", async () => {
    const cache = join(dir, "cache");
    const runDir = await runFolder("r", "y".repeat(200_000));
    await mkdir(cache, { recursive: true });
    const storeModule = pathToFileURL(join(process.cwd(), "dist", "store", "index.js")).href;
    const writer = (n: number) =>
      new Promise<number>((resolve, reject) => {
        const script = `const { openStore } = await import(${JSON.stringify(storeModule)});
          const store = openStore({ dir: ${JSON.stringify(cache)} });
          await Promise.all(Array.from({ length: 20 }, (_, i) => store.put("eval-run", "key" + i, {
            runDir: ${JSON.stringify(runDir)}, source: { iteration: "iteration-${n}", run: "r", workspace: "/w", cost_usd: 0 } })));`;
        const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "inherit" });
        child.on("error", reject);
        child.on("exit", (code) => resolve(code ?? -1));
      });
    expect(await Promise.all([writer(1), writer(2)])).toEqual([0, 0]);
    const store = openStore({ dir: cache });
    for (let i = 0; i < 20; i++) {
      const got = await store.get("eval-run", `key${i}`);
      expect(got, `key${i}`).toBeDefined();
      expect(await readFile(join(got!.filesDir, "outputs", "a.txt"), "utf8")).toHaveLength(200_000);
    }
    // Nothing is left aside in the temporary folder.
    expect(await readdir(join(cache, "tmp"))).toEqual([]);
  }, 60_000);
});
