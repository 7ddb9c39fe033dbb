import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { conditionsTree, listing } from "./conditions-fixture.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    ...conditionsTree(),
    // Claude Code lists the installed skills beside its own and names its working directory: the sim reads both.
    "release-notes/evals/sim-script.json": JSON.stringify({
      rules: [
        { match: "what changed", skills: "^changelog$", skill: "changelog" },
        { match: "what changed", skill: "~release-notes-sg-" },
        { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
        { skill: "none", without_skill: [{ text: "Sure." }] },
      ],
    }),
  });
});
afterAll(() => cleanup?.());

interface QueryResult {
  triggers: number;
  stolen_by?: Record<string, number>;
}

// Each agent lists skills and names its working directory in its own words; the sim reads each.
describe.each(["claude-code", "codex", "gemini"])(
  "trigger conditions through the real %s (the sim behind it)",
  (agent) => {
    it("the library steals a query the clean room gives the skill; the project makes another fire", async () => {
      const before = await listing(join(dir, "project"));
      const triggers = (workspace: string, ...extra: string[]) => {
        const result = skillgym([
          "triggers",
          join(dir, "release-notes"),
          "--agent",
          agent,
          "--simulate",
          "--runs",
          "1",
          "--workspace",
          join(dir, workspace),
          "--json",
          ...extra,
        ]);
        expect(result.code, result.stderr).toBe(0);
        return JSON.parse(result.stdout).results as QueryResult[];
      };
      const clean = triggers(`ws-clean-${agent}`);
      expect(clean.map((r) => r.triggers)).toEqual([1, 0, 0]);

      const real = triggers(
        `ws-real-${agent}`,
        "--installed",
        join(dir, "library"),
        "--project-root",
        join(dir, "project"),
      );
      expect(real.map((r) => r.triggers)).toEqual([0, 1, 0]);
      expect(real[0]?.stolen_by).toEqual({ changelog: 1 });
      expect(await listing(join(dir, "project"))).toEqual(before);
    }, 240_000);
  },
);
