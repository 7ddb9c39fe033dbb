import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

async function runFolder(name: string, body: string): Promise<string> {
  const runDir = join(dir, name);
  await writeTree(runDir, { "timing.json": '{"outcome":"success"}', "outputs/deep/a.txt": body });
  return runDir;
}

describe("a store write", () => {
  it("records the grading key only when there is one, and leaves nothing in its temporary folder", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "graded", {
      runDir: await runFolder("r1", "one"),
      source,
      gradingKey: "g-1",
    });
    await store.put("eval-run", "plain", { runDir: await runFolder("r2", "two"), source });
    expect((await store.get("eval-run", "graded"))?.entry.grading_key).toBe("g-1");
    const plain = await store.get("eval-run", "plain");
    expect(plain?.entry).not.toHaveProperty("grading_key");
    expect(plain?.entry.files).toEqual([
      { path: "outputs/deep/a.txt", size: 3, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { path: "timing.json", size: 21, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(await readdir(join(dir, "cache", "tmp"))).toEqual([]);
  });

  it("keeps the first good entry when the same key is written again, at once or later", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "k1", { runDir: await runFolder("first", "first"), source });
    await store.put("eval-run", "k1", { runDir: await runFolder("second", "second"), source });
    const got = await store.get("eval-run", "k1");
    expect(await readFile(join(got!.filesDir, "outputs", "deep", "a.txt"), "utf8")).toBe("first");

    const runs = await Promise.all([runFolder("x", "x"), runFolder("y", "y"), runFolder("z", "z")]);
    await Promise.all(runs.map((runDir) => store.put("eval-run", "k2", { runDir, source })));
    const raced = await store.get("eval-run", "k2");
    expect(["x", "y", "z"]).toContain(
      await readFile(join(raced!.filesDir, "outputs", "deep", "a.txt"), "utf8"),
    );
    expect(await readdir(join(dir, "cache", "tmp"))).toEqual([]);
  });

  it("replaces an entry whose file was deleted, and sweeps the damaged one away", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "k1", { runDir: await runFolder("first", "first"), source });
    const damaged = await store.get("eval-run", "k1");
    await rm(join(damaged!.filesDir, "outputs", "deep", "a.txt"));
    expect(await store.get("eval-run", "k1")).toBeUndefined();
    await store.put("eval-run", "k1", { runDir: await runFolder("second", "second"), source });
    const got = await store.get("eval-run", "k1");
    expect(await readFile(join(got!.filesDir, "outputs", "deep", "a.txt"), "utf8")).toBe("second");
    expect(await readdir(join(dir, "cache", "tmp"))).toEqual([]);
  });

  it("replaces a file found where an entry's folder goes, as a damaged entry", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await mkdir(join(dir, "cache", "v1", "eval-run", "k1"), { recursive: true });
    await writeFile(join(dir, "cache", "v1", "eval-run", "k1", "k1"), "not an entry");
    await store.put("eval-run", "k1", { runDir: await runFolder("r", "fresh"), source });
    const got = await store.get("eval-run", "k1");
    expect(await readFile(join(got!.filesDir, "outputs", "deep", "a.txt"), "utf8")).toBe("fresh");
    expect(await readdir(join(dir, "cache", "tmp"))).toEqual([]);
  });

  it("treats an entry of another kind, found under this kind's key, as absent", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "k1", { runDir: await runFolder("r", "r"), source });
    await cp(join(dir, "cache", "v1", "eval-run"), join(dir, "cache", "v1", "trigger-run"), {
      recursive: true,
    });
    expect(await store.get("trigger-run", "k1")).toBeUndefined();
    expect(await store.get("eval-run", "k1")).toBeDefined();
  });
});

describe("copyStoredRun", () => {
  it("makes the run folder and its parents when none exists", async () => {
    const store = openStore({ dir: join(dir, "cache") });
    await store.put("eval-run", "k1", { runDir: await runFolder("r", "body"), source });
    const target = join(dir, "iteration-2", "eval-1", "with_skill", "run-1");
    await copyStoredRun((await store.get("eval-run", "k1"))!, target);
    expect(await readFile(join(target, "outputs", "deep", "a.txt"), "utf8")).toBe("body");
    expect(await readFile(join(target, "timing.json"), "utf8")).toBe('{"outcome":"success"}');
  });
});
