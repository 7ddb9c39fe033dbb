import { access, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type Attempt, type AttemptPlan, runAttempt } from "../../src/run/attempt.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { createDoubleAgent } from "../agent-double/index.js";
import { fastRetry, tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer | undefined;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await cleanup();
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function attemptWith(script: SimScript, plan: Partial<AttemptPlan> = {}) {
  sim = await startSim({ script });
  const agent = await createDoubleAgent({ simulatorUrl: sim.url });
  const tempRoot = join(dir, "tmp");
  const runDir = join(dir, "run");
  const retries: number[] = [];
  let seen: (Attempt & { workspaceExisted: boolean }) | undefined;
  const returned = await runAttempt(
    {
      name: "card",
      runNumber: 1,
      runDir,
      workspace: (work) => ({ dir: work, skills: [], skillsFolder: agent.skillsFolder, fixtures: [] }),
      prompt: "Make a greeting card",
      timeoutMs: 60_000,
      heading: "card run",
      collectOutputs: true,
      eventLog: true,
      onRetry: (info) => retries.push(info.attempt),
      ...plan,
    },
    { agent, tempRoot, retry: fastRetry },
    async (attempt) => {
      seen = {
        ...attempt,
        workspaceExisted: attempt.workspaceDir ? await exists(join(attempt.workspaceDir, "card.txt")) : false,
      };
      return "finished";
    },
  );
  return { returned, seen, retries, runDir, tempRoot };
}

describe("one attempt of an agent run", () => {
  it("retries a busy service, collects the outputs, writes the transcripts, then removes its folders", async () => {
    const script = SimScript.parse({
      rules: [
        {
          match: "greeting",
          fault: { status: 529, sessions: 1 },
          without_skill: [{ write: { path: "card.txt", content: "hi" } }],
        },
      ],
    });
    const { returned, seen, retries, runDir, tempRoot } = await attemptWith(script);
    expect(returned).toBe("finished");
    expect(seen).toMatchObject({ outcome: "success", attempts: 2, workspaceExisted: true });
    expect(seen?.changes?.created).toEqual(["card.txt"]);
    expect(retries).toEqual([1]);
    expect(await readFile(join(runDir, "outputs", "card.txt"), "utf8")).toBe("hi");
    expect(await readFile(join(runDir, "transcript.md"), "utf8")).toContain("card run");
    expect(await exists(join(runDir, "transcript.jsonl"))).toBe(true);
    expect(await readFile(join(runDir, "events.jsonl"), "utf8")).toContain('"tool":"write"');
    expect(await readdir(tempRoot)).toEqual([]);
  });

  it("reports a workspace that cannot be staged as a crash with its reason, without running the agent", async () => {
    const { seen, runDir, tempRoot } = await attemptWith(SimScript.parse({ rules: [] }), {
      workspace: (work) => ({
        dir: work,
        skills: [{ sourceDir: join(dir, "no-such-skill"), installName: "ghost" }],
        skillsFolder: ".claude/skills",
        fixtures: [],
      }),
    });
    expect(seen).toMatchObject({ outcome: "crash", attempts: 1, outputChars: 0 });
    expect(seen?.result).toBeUndefined();
    expect(seen?.setupError).toMatch(/^workspace setup failed: /);
    expect(await exists(join(runDir, "outputs"))).toBe(true);
    expect(await exists(join(runDir, "transcript.md"))).toBe(true);
    expect(await readdir(tempRoot)).toEqual([]);
  });
});
