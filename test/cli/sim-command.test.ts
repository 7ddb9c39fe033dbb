import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { cli } from "./command-fixture.js";
import { serving } from "./serving-command.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "notes/SKILL.md": skillMd(
      "release-notes",
      "Writes release notes from a changelog. Use when asked for release notes.",
      "Write them.",
    ),
    "csv/SKILL.md": skillMd(
      "csv-summary",
      "Summarises a CSV file. Use when asked to summarise a CSV.",
      "Sum.",
    ),
    "strict.json": JSON.stringify({ skill_choice: { cutoff: 0.9, min_shared: 1 }, rules: [] }),
    "empty/README.md": "not a skill\n",
  });
});
afterAll(() => cleanup());

const prompt = "write the release notes from this changelog";

describe("skillgym sim --explain", () => {
  it("scores the prompt against each skill and names the one chosen", async () => {
    expect(await cli(["sim", "--explain", prompt, join(dir, "notes"), join(dir, "csv")])).toEqual({
      code: 0,
      stdout:
        'prompt: "write the release notes from this changelog"\n' +
        "content words (4): write, release, notes, changelog\n" +
        "a skill is chosen at a score of 25% or more with at least 2 shared words; the highest wins\n" +
        "\n" +
        "CHOSEN  release-notes: score 75% (3/4), shared: release, notes, changelog\n" +
        "        the highest score at or above the cutoff\n" +
        "not     csv-summary: score 0% (0/4), shared: (none)\n" +
        "        shares 0 word(s), fewer than the 2 needed\n" +
        "\n" +
        "chosen: release-notes\n",
      stderr: "",
    });
  });

  it("scores with the script's cutoff and shared words, and says when no skill is chosen", async () => {
    const result = await cli([
      "sim",
      "--explain",
      prompt,
      "--script",
      join(dir, "strict.json"),
      join(dir, "notes"),
    ]);
    expect(result).toEqual({
      code: 0,
      stdout:
        'prompt: "write the release notes from this changelog"\n' +
        "content words (4): write, release, notes, changelog\n" +
        "a skill is chosen at a score of 90% or more with at least 1 shared words; the highest wins\n" +
        "\n" +
        "not     release-notes: score 75% (3/4), shared: release, notes, changelog\n" +
        "        score 75% is below the cutoff 90%\n" +
        "\n" +
        "chosen: none (the run would follow without_skill steps)\n",
      stderr: "",
    });
  });

  it("says when the prompt has no content words", async () => {
    const result = await cli(["sim", "--explain", "the", join(dir, "csv")]);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").slice(0, 2)).toEqual(['prompt: "the"', "content words (0): (none)"]);
  });

  it("needs a skill folder to score against", async () => {
    expect(await cli(["sim", "--explain", prompt])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "skillgym: --explain needs at least one skill folder after the prompt\n" +
        '  fix: skillgym sim --explain "write our 3P update" skills/internal-comms\n',
    });
  });

  it("refuses a folder with no skill in it", async () => {
    const empty = join(dir, "empty");
    expect(await cli(["sim", "--explain", prompt, join(dir, "notes"), empty])).toEqual({
      code: 2,
      stdout: "",
      stderr: `skillgym: ${empty}: no SKILL.md with frontmatter found\n`,
    });
  });
});

describe("skillgym sim", () => {
  it("takes skill folders only with --explain", async () => {
    expect(await cli(["sim", join(dir, "notes")])).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillgym: skill folders are only taken with --explain <prompt>\n",
    });
  });

  it("serves on the port asked for, prints and logs each request, and stops on Ctrl-C", async () => {
    const port = await freePort();
    const log = join(dir, "requests.jsonl");
    const sim = await serving(["sim", "--port", String(port), "--latency-ms", "0", "--log", log]);
    const url = `http://127.0.0.1:${port}`;
    expect(sim.io.stdout()).toBe(
      `skillgym sim (a stand-in for the Anthropic API; its answers are scripted, not a model's) at ${url}\n` +
        `  ANTHROPIC_BASE_URL=${url} ANTHROPIC_API_KEY=sim claude -p "..."\n` +
        "Ctrl-C stops it.\n",
    );
    expect(sim.handlers()).toEqual({ SIGINT: 1, SIGTERM: 1 });
    const answer = await hello(url);
    expect(answer.status).toBe(200);
    const entries = (await readFile(log, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(entries).toEqual([
      {
        time: expect.any(String),
        session: expect.stringMatching(/^prompt-1[0-9a-f]{11}$/),
        path: "/v1/messages",
        turn: 0,
        prompt: "hello there",
        listed: [],
        action: "side-request",
      },
    ]);
    expect(sim.io.stderr()).toBe(`${entries[0].time} prompt-1 turn 0: side-request\n`);
    expect(await sim.stop("SIGINT")).toEqual({ code: 0, left: 0 });
    await expect(fetch(url)).rejects.toThrow();
  });

  it("plays --script and waits --latency-ms before each answer to an agent's turn", async () => {
    const script = join(dir, "overloaded.json");
    await writeFile(script, JSON.stringify({ rules: [{ match: "hello", fault: { status: 529 } }] }));
    const sim = await serving(["sim", "--script", script, "--latency-ms", "200"]);
    const url = /at (http:\S+)\n/.exec(sim.io.stdout())?.[1] as string;
    const started = Date.now();
    const answer = await hello(url, {
      tools: [{ name: "Bash", description: "runs a command", input_schema: { type: "object" } }],
    });
    expect(answer.status).toBe(529);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(sim.io.stderr()).toMatch(/^\S+ prompt-1 turn 0: fault 529\n$/);
    expect(await sim.stop("SIGINT")).toEqual({ code: 0, left: 0 });
  });

  it("stops on SIGTERM too", async () => {
    const sim = await serving(["sim", "--port", "0"]);
    const url = /at (http:\S+)\n/.exec(sim.io.stdout())?.[1] as string;
    await hello(url);
    expect(sim.io.stderr()).toMatch(/^\S+ prompt-1 turn 0: side-request\n$/);
    expect(await sim.stop("SIGTERM")).toEqual({ code: 0, left: 0 });
  });
});

// "hello there" to the sim's Messages API, with whatever else the request holds.
function hello(url: string, extra: object = {}): Promise<Response> {
  return fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "hello there" }],
      ...extra,
    }),
  });
}

// A port free a moment ago.
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
