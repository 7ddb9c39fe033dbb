import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyStoredRun, openStore } from "../../src/store/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const source = { iteration: "iteration-1", run: "eval-1/with_skill/run-1", workspace: "/ws", cost_usd: 0.5 };

async function runFolder(name: string): Promise<string> {
  const runDir = join(dir, name);
  await writeTree(runDir, {
    "timing.json": '{"outcome":"success"}',
    "grading.json": '{"summary":{"pass_rate":1}}',
    "outputs/card.txt": "a birthday card",
  });
  return runDir;
}

describe("a store read", () => {
  it("treats an entry whose file has the recorded size but other bytes as absent", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "k1", { runDir: await runFolder("r"), source });
    const stored = await store.get("eval-run", "k1");
    expect(stored).toBeDefined();
    const card = join(stored!.filesDir, "outputs", "card.txt");
    const text = await readFile(card, "utf8");
    await writeFile(card, text.toUpperCase());
    expect((await readFile(card)).length).toBe(Buffer.byteLength(text));
    expect(await store.get("eval-run", "k1")).toBeUndefined();
  });

  it("treats an entry that names another key as absent", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "aa-first", { runDir: await runFolder("r"), source });
    const first = await store.get("eval-run", "aa-first");
    // The same entry, copied to where the key "aa-second" would be.
    await cp(dirname(first!.filesDir), join(dirname(dirname(first!.filesDir)), "aa-second"), {
      recursive: true,
    });
    expect(await store.get("eval-run", "aa-second")).toBeUndefined();
    expect(await store.get("eval-run", "aa-first")).toBeDefined();
  });

  it("is off under --fresh, which still writes", async () => {
    expect(openStore({ dir: join(dir, "cache") }).reads).toBe(true);
    const fresh = openStore({ dir: join(dir, "cache"), fresh: true });
    expect(fresh.reads).toBe(false);
    await fresh.put("eval-run", "k1", { runDir: await runFolder("r"), source });
    expect(await openStore({ dir: join(dir, "cache") }).get("eval-run", "k1")).toBeDefined();
  });
});

describe("copyStoredRun", () => {
  it("copies every stored file but the ones left out, replacing what the run folder held", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "k1", { runDir: await runFolder("r"), source });
    const target = join(dir, "iteration-2", "eval-1", "with_skill", "run-1");
    await writeTree(target, { "stale.txt": "from before" });
    await copyStoredRun((await store.get("eval-run", "k1"))!, target, (path) => path === "grading.json");
    expect((await readdir(target, { recursive: true })).sort()).toEqual([
      "outputs",
      "outputs/card.txt",
      "timing.json",
    ]);
    expect(await readFile(join(target, "outputs", "card.txt"), "utf8")).toBe("a birthday card");
  });
});
