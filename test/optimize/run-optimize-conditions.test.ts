import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { type OptimizeOptions, runOptimize } from "../../src/optimize/index.js";
import { prepareOptimize } from "../../src/optimize/plan.js";
import { skillMd, writeTree } from "../e2e/helpers.js";
import { scribeOptions, useScribe } from "./scribe-fixture.js";
import { scribeQueries } from "./scribe-queries.js";
import { scriptedImprover, wordAgent } from "./word-agent.js";

// Where an optimization's trigger runs are made, and what it is given besides: runOptimize in this process with
// the original description alone (no improver call), an agent that loads every installed skill whose description
// shares a word with the query.

const { dir, skillDir } = useScribe({
  "project/package.json": "{}\n",
  "library/changelog/SKILL.md": skillMd("changelog", "Keeps the release changelog.", "Body."),
  "context.json": JSON.stringify([
    { role: "user", content: "We ship on Fridays." },
    { role: "assistant", content: "Noted." },
  ]),
});
const project = () => join(dir(), "project");

function options(overrides: Partial<OptimizeOptions> = {}): OptimizeOptions {
  return scribeOptions(dir(), {
    maxIterations: 0,
    createImprover: async () => scriptedImprover([]).judge,
    ...overrides,
  });
}

const triggerResults = async (dir: string) =>
  JSON.parse(await readFile(join(dir, "iteration-0", "triggers", "trigger-results.json"), "utf8")) as {
    results: { query: string; triggers: number; stolen_by?: Record<string, number> }[];
    conditions?: Record<string, unknown>;
  };

describe("runOptimize under trigger conditions", () => {
  it("makes every run in a copy of the project, once, even when the suite asks for side by side", async () => {
    await writeTree(dir(), {
      "scribe/evals/evals.json": JSON.stringify({ conditions: { side_by_side: true }, evals: [] }),
    });
    const agent = wordAgent();
    const result = await runOptimize(options({ project: project(), createAgent: async () => agent.agent }));
    expect(agent.requests).toHaveLength(9);
    for (const entries of agent.folders) expect(entries).toContain("package.json");
    expect(result.results.settings.conditions).toEqual({ project_root: project() });
    expect((await triggerResults(result.dir)).conditions).toMatchObject({ project_root: project() });
    expect(await readdir(join(result.dir, "iteration-0", "triggers"))).not.toContain("clean");
  });

  it.each([
    ["--installed", () => ({ installed: [join(dir(), "library")] }), false],
    ["--context", () => ({ context: join(dir(), "context.json") }), true],
  ])(
    "makes every run once with %s alone, even when the suite asks for side by side",
    async (_flag, given, continues) => {
      await writeTree(dir(), {
        "scribe/evals/evals.json": JSON.stringify({ conditions: { side_by_side: true }, evals: [] }),
      });
      const agent = wordAgent({ continuesConversations: continues });
      const result = await runOptimize(options({ ...given(), createAgent: async () => agent.agent }));
      expect(agent.requests).toHaveLength(9);
      expect(await readdir(join(result.dir, "iteration-0", "triggers"))).not.toContain("clean");
    },
  );

  it("installs the --installed skills beside the one under test, which can take its queries", async () => {
    const result = await runOptimize(options({ installed: [join(dir(), "library")] }));
    expect(result.results.settings.conditions).toEqual({ installed: [join(dir(), "library")] });
    const stolen = (await triggerResults(result.dir)).results
      .filter((r) => r.stolen_by !== undefined)
      .map((r) => r.query)
      .sort();
    expect(stolen).toEqual(
      scribeQueries
        .filter((q) => q.query.includes("release"))
        .map((q) => q.query)
        .sort(),
    );
  });

  it("continues the --context conversation in every run", async () => {
    const agent = wordAgent({ continuesConversations: true });
    const result = await runOptimize(
      options({ context: join(dir(), "context.json"), createAgent: async () => agent.agent }),
    );
    expect(result.results.settings.conditions).toEqual({ context: join(dir(), "context.json") });
    expect(agent.requests).toHaveLength(9);
    for (const request of agent.requests)
      expect(request.history).toEqual([
        { role: "user", content: "We ship on Fridays." },
        { role: "assistant", content: "Noted." },
      ]);
  });

  it("refuses --context before any run for an agent that cannot continue a conversation", async () => {
    const agent = wordAgent();
    await expect(
      runOptimize(options({ context: join(dir(), "context.json"), createAgent: async () => agent.agent })),
    ).rejects.toMatchObject({
      code: "USAGE",
      message:
        "--context is not available with word: word has no headless way to continue a prior conversation",
    });
    expect(agent.requests).toHaveLength(0);
    expect(await readdir(dir())).not.toContain("ws");
  });

  it.each([
    ["not found", "no-such-project", "Project root not found"],
    ["not a folder", "context.json", "Project root is not a folder"],
  ])("refuses a project root that is %s", async (_what, name, sentence) => {
    await expect(prepareOptimize(options({ project: join(dir(), name) }))).rejects.toMatchObject({
      code: "WORKSPACE",
      message: `${sentence}: ${join(dir(), name)}`,
      file: join(dir(), name),
      hint: "give --project-root the folder of the project the skill is used in",
    });
  });
});

describe("runOptimize's other inputs", () => {
  it("passes the model to every run and records it", async () => {
    const agent = wordAgent();
    const result = await runOptimize(options({ model: "model-x", createAgent: async () => agent.agent }));
    expect(result.results.settings.model).toBe("model-x");
    expect(agent.requests.map((r) => r.model)).toEqual(Array(9).fill("model-x"));
  });

  it("reports each trigger run to the trigger reporter", async () => {
    let ended = 0;
    await runOptimize(options({ triggerReporter: { onRunEnd: () => void ended++ } }));
    expect(ended).toBe(9);
  });

  it("reads the queries from --evals", async () => {
    await writeTree(dir(), { "elsewhere/triggers.json": JSON.stringify(scribeQueries.slice(0, 4)) });
    const agent = wordAgent();
    const result = await runOptimize(
      options({ evalsPath: join(dir(), "elsewhere", "triggers.json"), createAgent: async () => agent.agent }),
    );
    expect(agent.requests.map((r) => r.prompt).sort()).toEqual(
      scribeQueries
        .slice(0, 4)
        .map((q) => q.query)
        .sort(),
    );
    expect(result.results.iterations[0]!.trigger_runs).toBe(4);
  });

  it("finds the queries under the project root it is given", async () => {
    await writeTree(dir(), {
      "lone/SKILL.md": skillMd("lone", "Tidies documents.", "Body."),
      "elsewhere/evals/lone/triggers.json": JSON.stringify(scribeQueries.slice(0, 4)),
    });
    const agent = wordAgent();
    const result = await runOptimize(
      options({
        skillPath: join(dir(), "lone"),
        projectRoot: join(dir(), "elsewhere"),
        createAgent: async () => agent.agent,
      }),
    );
    expect(agent.requests).toHaveLength(4);
    expect(result.results.iterations[0]!.trigger_runs).toBe(4);
  });

  it("tries a busy agent's run as often as --retries says", async () => {
    const busy = wordAgent();
    const run = busy.agent.run.bind(busy.agent);
    busy.agent.run = async (request) => ({ ...(await run(request)), outcome: "overloaded" });
    await runOptimize(
      options({
        retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
        createAgent: async () => busy.agent,
      }),
    );
    expect(busy.requests).toHaveLength(18);
  });

  it("serves an evaluation made before from the result store", async () => {
    const first = await runOptimize(options({ store: {} }));
    expect(first.results.iterations[0]!.trigger_runs).toBe(9);
    expect(await readdir(join(dir(), "ws"))).toContain(".skillgym-cache");
    const agent = wordAgent();
    const again = await runOptimize(
      options({
        store: {},
        now: () => new Date("2030-01-01T00:00:00Z"),
        createAgent: async () => agent.agent,
      }),
    );
    expect(agent.requests).toHaveLength(0);
    expect(again.results.iterations[0]!.test).toEqual(first.results.iterations[0]!.test);
  });

  it("stops with an error when triggers.json changes while it runs", async () => {
    let folder = "";
    const changed = runOptimize(
      options({
        // The agent is made after the queries were split; the evaluation then reads the changed file.
        createAgent: async () => {
          await writeFile(
            join(skillDir(), "evals", "triggers.json"),
            JSON.stringify([
              { query: "something else entirely", should_trigger: true },
              ...scribeQueries.slice(1),
            ]),
          );
          return wordAgent().agent;
        },
        reporter: {
          onPlan: (info) => {
            folder = info.dir;
          },
        },
      }),
    );
    await expect(changed).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: "triggers.json changed while the optimizer was running",
      hint: "leave the suite alone during an optimization, then run it again",
    });
    const results = OptimizeResults.parse(JSON.parse(await readFile(join(folder, "results.json"), "utf8")));
    expect(results).toMatchObject({
      status: "interrupted",
      exit_reason: "error",
      error: "triggers.json changed while the optimizer was running",
      iterations: [],
    });
  });

  it("stops with an error when the last query is taken out of triggers.json while it runs", async () => {
    const changed = runOptimize(
      options({
        createAgent: async () => {
          await writeFile(
            join(skillDir(), "evals", "triggers.json"),
            JSON.stringify(scribeQueries.slice(0, -1)),
          );
          return wordAgent().agent;
        },
      }),
    );
    await expect(changed).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: "triggers.json changed while the optimizer was running",
    });
  });
});
