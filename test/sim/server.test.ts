import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type SimLogEntry, type SimServer, startSim } from "../../src/sim/server.js";
import { claudeRequest, parseSse, post, postJson, texts, toolUses } from "./sim-client.js";

const prompt = "Convert this PDF document to plain text";
let sim: SimServer | undefined;

async function start(
  script: unknown,
  extra: { latencyMs?: number; onRequest?: (e: SimLogEntry) => void } = {},
) {
  sim = await startSim({ script: SimScript.parse(script), ...extra });
  return sim;
}

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("startSim: answers", () => {
  it("plays a rule's steps turn by turn as JSON messages", async () => {
    const { url } = await start({
      rules: [{ match: "pdf", skill: "pdf-tools", steps: [{ text: "Reading it." }, { bash: "ls -la" }] }],
    });
    const first = await postJson(url, claudeRequest({ prompt }), "s1");
    expect(first.type).toBe("message");
    expect(first.role).toBe("assistant");
    expect(first.stop_reason).toBe("tool_use");
    expect(toolUses(first).map((t) => [t.name, t.input])).toEqual([["Skill", { skill: "pdf-tools" }]]);

    const second = await postJson(url, claudeRequest({ prompt, turn: 1 }), "s1");
    expect(texts(second)).toEqual(["Reading it."]);
    expect(toolUses(second).map((t) => [t.name, t.input.command])).toEqual([["Bash", "ls -la"]]);
    expect(second.content.map((b) => b.type)).toEqual(["text", "tool_use"]);

    const last = await postJson(url, claudeRequest({ prompt, turn: 2 }), "s1");
    expect(last.stop_reason).toBe("end_turn");
    expect(toolUses(last)).toEqual([]);
    expect(texts(last).join(" ")).toContain("pdf-tools");

    const beyond = await postJson(url, claudeRequest({ prompt, turn: 7 }), "s1");
    expect(beyond.stop_reason).toBe("end_turn");
    expect(toolUses(beyond)).toEqual([]);
    expect(beyond.usage.input_tokens).toBeGreaterThan(0);
    expect(beyond.usage.output_tokens).toBeGreaterThan(0);
  });

  it("streams the Messages API event sequence, tool input as input_json_delta", async () => {
    const { url } = await start({ rules: [{ skill: "pdf-tools", before: [{ text: "Let me look." }] }] });
    const response = await post(url, claudeRequest({ prompt, stream: true }), "s1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    for (const e of events) expect(e.data.type).toBe(e.event);
    const start0 = events[0]!.data.message as { role: string; content: unknown[]; stop_reason: unknown };
    expect(start0.role).toBe("assistant");
    expect(start0.content).toEqual([]);
    expect(start0.stop_reason).toBeNull();

    expect(events[1]!.data).toMatchObject({ index: 0, content_block: { type: "text", text: "" } });
    expect(events[2]!.data).toMatchObject({ index: 0, delta: { type: "text_delta", text: "Let me look." } });
    expect(events[3]!.data).toMatchObject({ index: 0 });
    const toolStart = events[4]!.data as { index: number; content_block: Record<string, unknown> };
    expect(toolStart.index).toBe(1);
    expect(toolStart.content_block).toMatchObject({ type: "tool_use", name: "Skill", input: {} });
    expect(typeof toolStart.content_block.id).toBe("string");
    const delta = events[5]!.data as { index: number; delta: { type: string; partial_json: string } };
    expect(delta.index).toBe(1);
    expect(delta.delta.type).toBe("input_json_delta");
    expect(JSON.parse(delta.delta.partial_json)).toEqual({ skill: "pdf-tools" });
    expect(events[7]!.data).toMatchObject({ delta: { stop_reason: "tool_use" } });

    const json = await postJson(url, claudeRequest({ prompt }), "s2");
    expect(toolUses(json)[0]!.input).toEqual(JSON.parse(delta.delta.partial_json));
  });

  it("ends a streamed final turn with stop_reason end_turn", async () => {
    const { url } = await start({ rules: [{ skill: "none" }] });
    const events = parseSse(await (await post(url, claudeRequest({ prompt, stream: true }), "s1")).text());
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[4]!.data).toMatchObject({ delta: { stop_reason: "end_turn" } });
  });

  it("resolves a write step's path against the working directory and fills templates", async () => {
    const cwd = resolve("/tmp/sim-project");
    const absolute = resolve("/elsewhere/abs.txt");
    const { url } = await start({
      rules: [
        {
          skill: "pdf-tools",
          steps: [
            { write: { path: "out/{{skill}}.txt", content: "made by {{skill}} for {{prompt}}" } },
            { write: { path: absolute, content: "x" } },
            { read: "in.txt" },
          ],
        },
      ],
    });
    const write = await postJson(url, claudeRequest({ prompt, cwd, turn: 1 }), "s1");
    expect(toolUses(write).map((t) => [t.name, t.input])).toEqual([
      ["Write", { file_path: resolve(cwd, "out/pdf-tools.txt"), content: `made by pdf-tools for ${prompt}` }],
    ]);
    const second = await postJson(url, claudeRequest({ prompt, cwd, turn: 2 }), "s1");
    expect(toolUses(second)[0]!.input.file_path).toBe(absolute);
    const read = await postJson(url, claudeRequest({ prompt, cwd, turn: 3 }), "s1");
    expect(toolUses(read).map((t) => [t.name, t.input])).toEqual([
      ["Read", { file_path: resolve(cwd, "in.txt") }],
    ]);
  });

  it("chooses the skill by word overlap, by ~fragment, or not at all", async () => {
    const skills = { "pdf-tools-3f9a": "Extract text from PDF documents.", other: "Bake bread." };
    const { url } = await start({
      rules: [
        { match: "fragment", skill: "~pdf-tools" },
        { match: "never", skill: "none", without_skill: [{ bash: "echo alone" }] },
        { skill: "auto", without_skill: [{ text: "No skill for this." }] },
      ],
    });
    const fragment = await postJson(url, claudeRequest({ prompt: "fragment please", skills }), "a");
    expect(toolUses(fragment)[0]!.input).toEqual({ skill: "pdf-tools-3f9a" });
    const none = await postJson(url, claudeRequest({ prompt: "never a skill", skills }), "b");
    expect(toolUses(none).map((t) => [t.name, t.input.command])).toEqual([["Bash", "echo alone"]]);
    const auto = await postJson(
      url,
      claudeRequest({ prompt: "extract the text from documents", skills }),
      "c",
    );
    expect(toolUses(auto)[0]!.input).toEqual({ skill: "pdf-tools-3f9a" });
    const unmatched = await postJson(url, claudeRequest({ prompt: "walk the dog in the park", skills }), "d");
    expect(toolUses(unmatched)).toEqual([]);
    expect(texts(unmatched)).toEqual(["No skill for this."]);
  });

  it("applies a rule only to the models its model pattern matches", async () => {
    const { url } = await start({
      rules: [
        { match: "pdf", model: "^old$", skill: "pdf-tools" },
        { match: "pdf", model: "new", skill: "none", without_skill: [{ text: "Done without a skill." }] },
      ],
    });
    const asked = (model: string, session: string) =>
      postJson(url, { ...claudeRequest({ prompt }), model }, session);
    const old = await asked("old", "m1");
    expect(toolUses(old)[0]!.input).toEqual({ skill: "pdf-tools" });
    const fresh = await asked("claude-new-5", "m2");
    expect(toolUses(fresh)).toEqual([]);
    expect(texts(fresh)).toEqual(["Done without a skill."]);
    // A model neither rule names falls through to the default: the skill chosen by word overlap.
    const other = await asked("older", "m3");
    expect(toolUses(other)[0]!.input).toEqual({ skill: "pdf-tools" });
    expect(texts(other)).toEqual([]);
  });

  it("gives a request without tools a plain text answer, streamed or not", async () => {
    const { url } = await start({ rules: [{ fault: { status: 529 } }] });
    const json = await postJson(url, claudeRequest({ prompt, tools: false }), "side");
    expect(json.content).toEqual([{ type: "text", text: "Simulated answer." }]);
    expect(json.stop_reason).toBe("end_turn");
    const events = parseSse(
      await (await post(url, claudeRequest({ prompt, tools: false, stream: true }), "side")).text(),
    );
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });
});

describe("startSim: sessions", () => {
  it("cycles trigger_pattern per session of the same prompt", async () => {
    const { url } = await start({ rules: [{ skill: "pdf-tools", trigger_pattern: [true, false, false] }] });
    const loaded: boolean[] = [];
    for (let i = 1; i <= 6; i++) {
      // A side request (no tools) in between must not count as a run.
      await postJson(url, claudeRequest({ prompt, tools: false }), `session-${i}`);
      const first = await postJson(url, claudeRequest({ prompt }), `session-${i}`);
      loaded.push(toolUses(first).some((t) => t.name === "Skill"));
      // Later turns of the same session keep the session's decision.
      const again = await postJson(url, claudeRequest({ prompt, turn: 1 }), `session-${i}`);
      expect(again.stop_reason).toBe("end_turn");
    }
    expect(loaded).toEqual([true, false, false, true, false, false]);
  });

  it("counts trigger_pattern runs per prompt", async () => {
    const { url } = await start({ rules: [{ skill: "pdf-tools", trigger_pattern: [true, false] }] });
    const loads = async (p: string, session: string) =>
      toolUses(await postJson(url, claudeRequest({ prompt: p }), session)).length > 0;
    expect(await loads("first prompt", "a")).toBe(true);
    expect(await loads("second prompt", "b")).toBe(true);
    expect(await loads("first prompt", "c")).toBe(false);
    expect(await loads("second prompt", "d")).toBe(false);
  });

  it("keys a request without a session header by its prompt", async () => {
    const { url } = await start({ rules: [{ skill: "pdf-tools", trigger_pattern: [true, false] }] });
    const first = await postJson(url, claudeRequest({ prompt }));
    expect(toolUses(first)[0]!.name).toBe("Skill");
    const same = await postJson(url, claudeRequest({ prompt }));
    expect(toolUses(same)[0]!.name).toBe("Skill");
  });

  it("faults only as many sessions as the rule says, with the API's error body", async () => {
    const { url } = await start({ rules: [{ skill: "pdf-tools", fault: { status: 529, sessions: 1 } }] });
    const faulted = await post(url, claudeRequest({ prompt }), "one");
    expect(faulted.status).toBe(529);
    expect(await faulted.json()).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
    const retried = await post(url, claudeRequest({ prompt }), "one");
    expect(retried.status).toBe(529);
    await retried.body?.cancel();
    const served = await postJson(url, claudeRequest({ prompt }), "two");
    expect(toolUses(served)[0]!.input).toEqual({ skill: "pdf-tools" });
  });

  it("answers 429 and 500 faults with their error types", async () => {
    const { url } = await start({
      rules: [
        { match: "limit", fault: { status: 429 } },
        { match: "broken", fault: { status: 500 } },
      ],
    });
    const limited = await post(url, claudeRequest({ prompt: "limit" }), "a");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { type: "rate_limit_error" } });
    const broken = await post(url, claudeRequest({ prompt: "broken" }), "b");
    expect(broken.status).toBe(500);
    expect(await broken.json()).toMatchObject({ error: { type: "api_error" } });
  });

  it("never answers a hanging session, and close() still resolves", async () => {
    const { url, log } = await start({ rules: [{ fault: { hang: true } }] });
    const started = Date.now();
    await expect(post(url, claudeRequest({ prompt }), "h1", AbortSignal.timeout(300))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(log.map((e) => e.action)).toEqual(["hang"]);

    const open = post(url, claudeRequest({ prompt }), "h2").then(
      () => "answered",
      () => "dropped",
    );
    await new Promise((r) => setTimeout(r, 100));
    const closing = sim!.close();
    sim = undefined;
    const outcome = await Promise.race([
      closing.then(() => "closed"),
      new Promise((r) => setTimeout(() => r("close hung"), 3000)),
    ]);
    expect(outcome).toBe("closed");
    expect(await open).toBe("dropped");
  });

  it("waits latency_ms before answering", async () => {
    // Half a second apart: a quick answer stays under it even on a loaded machine.
    const { url } = await start({ rules: [{ match: "slow", latency_ms: 500 }] }, { latencyMs: 0 });
    let started = Date.now();
    await postJson(url, claudeRequest({ prompt: "slow one" }), "a");
    expect(Date.now() - started).toBeGreaterThanOrEqual(490);
    started = Date.now();
    await postJson(url, claudeRequest({ prompt: "quick one" }), "b");
    expect(Date.now() - started).toBeLessThan(490);
  });
});

describe("startSim: other routes and bad input", () => {
  it("answers count_tokens with {input_tokens}", async () => {
    const { url } = await start({});
    const response = await fetch(`${url}/v1/messages/count_tokens?beta=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(claudeRequest({ prompt })),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["input_tokens"]);
    expect(body.input_tokens).toBeGreaterThan(0);
  });

  it("answers a malformed body with 400 invalid_request_error", async () => {
    const { url, log } = await start({});
    const response = await post(url, "{not json", "bad");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(log).toEqual([]);
  });

  it("answers GET and HEAD with 200 and an unknown POST route with 404", async () => {
    const { url } = await start({});
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url, { method: "HEAD" })).status).toBe(200);
    const missing = await fetch(`${url}/v1/complete?beta=true`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      type: "error",
      error: { type: "not_found_error", message: "No route POST /v1/complete" },
    });
  });

  it("logs every Messages request and reports it to onRequest", async () => {
    const seen: SimLogEntry[] = [];
    const { url, log } = await start(
      { rules: [{ skill: "pdf-tools" }] },
      { onRequest: (entry) => seen.push(entry) },
    );
    await postJson(url, claudeRequest({ prompt, tools: false }), "s1");
    await postJson(url, claudeRequest({ prompt }), "s1");
    await postJson(url, claudeRequest({ prompt, turn: 1 }), "s1");
    expect(log.map((e) => [e.session, e.path, e.turn, e.prompt, e.action.split(" ")[0]])).toEqual([
      ["s1", "/v1/messages", 0, prompt, "side-request"],
      ["s1", "/v1/messages", 0, prompt, "Skill"],
      ["s1", "/v1/messages", 1, prompt, "final"],
    ]);
    expect(log[1]!.skill).toBe("pdf-tools");
    expect(Number.isNaN(Date.parse(log[0]!.time))).toBe(false);
    expect(seen).toEqual(log);
  });
});
