import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CANARIES, runEnvDump } from "./env-leak.js";
import { tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe.each(["claude-code", "codex"])("a skill that dumps its environment (%s, simulated)", (agent) => {
  it("finds none of skillgym's secrets: no file anywhere holds one", { timeout: 300_000 }, async () => {
    const dumped = await runEnvDump(dir, agent);
    expect(dumped.result.code, dumped.result.stderr).toBe(0);
    // The script did dump the environment, into the run's outputs and its transcript.
    expect(dumped.leaked).toMatch(/^PATH=/m);
    expect(dumped.transcript).toContain("PATH=");
    expect(dumped.grading).toContain("check saw:");
    const written = await dumped.written();
    expect(written.report).not.toBe("");
    expect(written.benchmark).not.toBe("");
    expect(written.events).not.toBe("");
    for (const canary of Object.values(CANARIES)) expect(await dumped.holding(canary)).toEqual([]);
  });

  it('passes what the suite names in "env", and only that', { timeout: 300_000 }, async () => {
    const dumped = await runEnvDump(dir, agent, { suiteEnv: ["SKILLGYM_CANARY_SECRET"] });
    expect(dumped.result.code, dumped.result.stderr).toBe(0);
    expect(dumped.leaked).toContain(`SKILLGYM_CANARY_SECRET=${CANARIES.SKILLGYM_CANARY_SECRET}`);
    // The command check got it too: its output is quoted in grading.json.
    expect(dumped.grading).toContain(`check saw:  ${CANARIES.SKILLGYM_CANARY_SECRET}`);
    expect(await dumped.holding(CANARIES.GITHUB_TOKEN)).toEqual([]);
  });
});
