import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CANARIES, runEnvDump } from "../e2e/env-leak.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe.each(["claude-code", "codex"])(
  "a skill that dumps its environment under --sandbox (%s)",
  (agent) => {
    it("finds none of skillgym's secrets: no file anywhere holds one", async () => {
      const dumped = await runEnvDump(dir, agent, { extraArgs: ["--sandbox"] });
      expect(dumped.result.code, dumped.result.stderr).toBe(0);
      const iteration = JSON.parse(await readFile(join(dumped.ws, "iteration-1", "iteration.json"), "utf8"));
      expect(iteration.sandbox).toBe(true);
      expect(dumped.leaked).toMatch(/^PATH=/m);
      expect(dumped.transcript).toContain("PATH=");
      for (const canary of Object.values(CANARIES)) expect(await dumped.holding(canary)).toEqual([]);
    });

    it('passes what the suite names in "env", and only that', async () => {
      const dumped = await runEnvDump(dir, agent, {
        suiteEnv: ["SKILLGYM_CANARY_SECRET"],
        extraArgs: ["--sandbox"],
      });
      expect(dumped.result.code, dumped.result.stderr).toBe(0);
      expect(dumped.leaked).toContain(`SKILLGYM_CANARY_SECRET=${CANARIES.SKILLGYM_CANARY_SECRET}`);
      expect(await dumped.holding(CANARIES.GITHUB_TOKEN)).toEqual([]);
    });
  },
);
