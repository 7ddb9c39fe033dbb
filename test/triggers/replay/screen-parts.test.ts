import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../../src/agents/agent.js";
import { SkillgymError } from "../../../src/errors.js";
import type { ResultStore } from "../../../src/store/index.js";
import { replayPossible } from "../../../src/triggers/replay/possible.js";
import { screenRefused } from "../../../src/triggers/replay/refuse.js";
import { openReplayer, SIMULATOR_KEY } from "../../../src/triggers/replay/replayer.js";
import { screenedHooks, screensRun } from "../../../src/triggers/replay/screen.js";
import { sseData } from "../../../src/triggers/replay/sse.js";
import type { TriggerContext, TriggerRunRecord } from "../../../src/triggers/run-trigger.js";
import { tempDir } from "../../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
const capture = {
  agent: "claude-code",
  marker: "SKILLGYMREPLAYQUERY0123456789abcdef",
  synthetic_name: "haiku-sg-1",
  method: "POST",
  path: "/v1/messages",
  headers: {},
  body: "{}",
};
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, "stored"), { recursive: true });
  await writeFile(join(dir, "stored", "capture.json"), JSON.stringify(capture));
});
afterAll(() => cleanup?.());

describe("the data of server-sent events", () => {
  it("joins an event's data lines, with or without the space, over LF or CRLF, and leaves out events without data", () => {
    const text = "event: a\ndata: one\ndata:two\n\n: comment\nid: 3\n\n\r\ndata: three\r\n\r\ndata:   \n\n";
    expect(sseData(text)).toEqual(["one\ntwo", "three"]);
    expect(sseData("")).toEqual([]);
    expect(sseData("data: x\nxdata: y\n\n")).toEqual(["x"]);
  });

  it("keeps a data line whole when it holds a character a regular expression's dot does not match", () => {
    // JSON.stringify leaves U+2028 and U+2029 as they are, so a model's answer can carry them in a data line.
    const answer = JSON.stringify({ text: "one\u2028two\u2029three\rfour" });
    expect(answer).toContain("\u2028");
    expect(sseData(`data: ${answer}\n\n`)).toEqual([answer]);
  });
});

describe("whether replay goes first for a run", () => {
  const spec = (queryIndex: number, runNumber: number) => ({ queryIndex, runNumber });
  it("every run without a list; the runs of the listed queries; the first run of firstRunOf's", () => {
    expect(screensRun({ kind: "replay" }, spec(4, 3))).toBe(true);
    const screen = { kind: "replay" as const, queries: [1], firstRunOf: [2] };
    expect(screensRun(screen, spec(1, 3))).toBe(true);
    expect(screensRun(screen, spec(2, 1))).toBe(true);
    expect(screensRun(screen, spec(2, 2))).toBe(false);
    expect(screensRun(screen, spec(0, 1))).toBe(false);
    expect(screensRun({ kind: "replay", queries: [] }, spec(0, 1))).toBe(false);
  });
});

describe("--screen replay with an agent that has no replay", () => {
  it("is a usage error naming the agent and those that have replay", () => {
    expect(() => screenRefused({ name: "claude-code" })).not.toThrow();
    let thrown: unknown;
    try {
      screenRefused({ name: "aider" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SkillgymError);
    expect((thrown as SkillgymError).message).toBe("--screen replay is not available with aider yet");
    expect((thrown as SkillgymError).hint).toBe(
      "agents with replay: claude-code, codex, gemini; leave --screen out to run the agent for every query",
    );
  });

  it("replay is not possible for it either", () => {
    expect(replayPossible({ name: "aider", simulated: true })).toEqual({
      possible: false,
      reason: "aider has no replay yet",
    });
    expect(replayPossible({ name: "claude-code", simulated: true }, {})).toEqual({ possible: true });
  });
});

describe("the replayer", () => {
  const ctx = (agent: Partial<Agent>, signal?: AbortSignal) =>
    ({
      agent: { name: "claude-code", simulated: false, apiBaseUrl: "http://127.0.0.1:9/", ...agent },
      skillName: "haiku",
      companions: [],
      tempRoot: dir,
      ...(signal ? { signal } : {}),
    }) as unknown as TriggerContext;
  // A store that holds the capture under any key: no capture run.
  const seenKeys: string[] = [];
  const store = {
    get: async (_kind: string, key: string) => {
      seenKeys.push(key);
      return { filesDir: join(dir, "stored") };
    },
  } as unknown as ResultStore;

  it("an agent without replay: off, with the reason warned", async () => {
    const warned: string[] = [];
    const replayer = openReplayer({
      ctx: ctx({ name: "aider" }),
      screen: { kind: "replay" },
      description: "d",
      iterationDir: dir,
      warn: (m) => warned.push(m),
    });
    expect(await replayer.ready()).toBeUndefined();
    expect(replayer.state).toEqual({ off: "aider has no replay yet", captured: false });
    expect(warned).toEqual(["--screen replay: aider has no replay yet; the agents decide every run"]);
  });

  it("a real agent without its API key: off, naming the variables", async () => {
    const replayer = openReplayer({
      ctx: ctx({}),
      screen: { kind: "replay", env: {} },
      description: "d",
      iterationDir: dir,
    });
    expect(await replayer.ready()).toBeUndefined();
    expect(replayer.state.off).toBe(
      "replay sends requests to the API itself and needs an API key (ANTHROPIC_API_KEY); a subscription login is the agent's alone",
    );
  });

  it("with its key and a stored capture: the target, made once, under the caller's key", async () => {
    const signal = new AbortController().signal;
    const replayer = openReplayer({
      ctx: ctx({}, signal),
      screen: { kind: "replay", env: { ANTHROPIC_API_KEY: "sk-ant" } },
      description: "d",
      iterationDir: dir,
      store,
      captureKey: "catalog-key",
    });
    const target = await replayer.ready();
    expect(target).toMatchObject({ capture, baseUrl: "http://127.0.0.1:9/", apiKey: "sk-ant", signal });
    expect(target?.adapter.agent).toBe("claude-code");
    expect(replayer.state).toEqual({ captured: false });
    expect(await replayer.ready()).toBe(target);
    expect(seenKeys).toEqual(["catalog-key"]);
  });

  it("under the simulator: the simulator's key, whatever the environment", async () => {
    const replayer = openReplayer({
      ctx: ctx({ simulated: true, apiBaseUrl: undefined }),
      screen: { kind: "replay", env: {} },
      description: "d",
      iterationDir: dir,
      store,
      captureKey: "k",
    });
    const target = await replayer.ready();
    expect(target).toMatchObject({ apiKey: SIMULATOR_KEY, baseUrl: "" });
    expect(target).not.toHaveProperty("signal");
  });
});

describe("the screened trigger hooks' summary", () => {
  it("counts a cancelled run for neither replay nor agent", () => {
    const hooks = screenedHooks({
      ctx: { agent: { name: "aider", simulated: true }, skillName: "haiku" } as unknown as TriggerContext,
      screen: { kind: "replay" },
      description: "d",
      iterationDir: dir,
      concurrency: 1,
      hooks: {
        finishedEarlier: async () => undefined,
        run: async () => {
          throw new Error("not run");
        },
      },
    });
    const record = (outcome: string, decided_by: string) =>
      ({ outcome, record: { decided_by } }) as unknown as TriggerRunRecord;
    expect(
      hooks.summary([record("success", "replay"), record("success", "agent"), record("cancelled", "agent")]),
    ).toMatchObject({ decided_by_replay: 1, decided_by_agent: 1 });
  });
});
