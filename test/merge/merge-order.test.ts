import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mergeShards, refuseIntoShard } from "../../src/merge/index.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("mergeShards reads its folders side by side but names them in the order given", () => {
  // The second folder fails at once (it does not exist); the first only after reading what it holds.
  it("reports the first folder's problem, not the one that failed first", async () => {
    const catalog = join(dir, "shard-1");
    await mkdir(catalog);
    await writeFile(join(catalog, "catalog-plan.json"), "{}");
    for (let attempt = 0; attempt < 5; attempt++)
      await expect(
        mergeShards({ shardDirs: [catalog, join(dir, "shard-2")], into: join(dir, "merged") }),
      ).rejects.toThrow(`${catalog} is a catalog folder`);
  });
});

describe("refuseIntoShard", () => {
  const shard = { source: "/w/shard-1", dir: "/w/shard-1/iteration-1" };
  const byIteration = { source: "/w/shard-2/iteration-3", dir: "/w/shard-2/iteration-3" };

  it("refuses a shard's folder, a folder inside it, and the workspace a shard's iteration folder sits in", () => {
    expect(() => refuseIntoShard("/w/shard-1", [shard])).toThrow(
      "--into /w/shard-1 is the shard folder /w/shard-1",
    );
    expect(() => refuseIntoShard("/w/shard-1/merged", [shard])).toThrow(
      "is inside the shard folder /w/shard-1",
    );
    expect(() => refuseIntoShard("/w/shard-1/iteration-1", [shard])).toThrow("is inside the shard folder");
    expect(() => refuseIntoShard("/w/shard-2", [shard, byIteration])).toThrow(
      "is the workspace of the shard /w/shard-2/iteration-3",
    );
  });

  it("takes a folder of its own, beside the shards or above them", () => {
    for (const into of ["/w/merged", "/w", "/w/shard-10", "/w/shard-1-merged"])
      expect(() => refuseIntoShard(into, [shard, byIteration])).not.toThrow();
  });
});
