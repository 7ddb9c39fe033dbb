import { chmod, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { cli } from "./command-fixture.js";
import { serving } from "./serving-command.js";

let dir: string;
let cleanup: () => Promise<void>;
const path = process.env.PATH;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "ws/iteration-1/benchmark.json": "{}",
    "notes/SKILL.md": skillMd(
      "release-notes",
      "Writes release notes from a changelog. Use when asked for release notes.",
      "Write them.",
    ),
    "notes/evals/triggers.json": JSON.stringify([{ query: "write the release notes", should_trigger: true }]),
    "opens/xdg-open": '#!/bin/sh\necho "$1" >> "$(dirname "$0")/opened"\n',
    "fails/xdg-open": "#!/bin/sh\nexit 3\n",
  });
  await chmod(join(dir, "opens/xdg-open"), 0o755);
  await chmod(join(dir, "fails/xdg-open"), 0o755);
});
afterEach(() => {
  process.env.PATH = path;
});
afterAll(() => cleanup());

// Browsers are opened with the `xdg-open` first on PATH: one that records what it opened, or one that fails.
async function browser(kind: "opens" | "fails") {
  await rm(join(dir, "opens/opened"), { force: true });
  process.env.PATH = `${join(dir, kind)}:${path}`;
}

// Holds a port until closed.
function takenPort(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () =>
      resolve({ port: (server.address() as { port: number }).port, server }),
    );
  });
}

describe("skillgym view", () => {
  it("serves a workspace on the port asked for, opening no browser with --no-open, until Ctrl-C", async () => {
    const ws = join(dir, "ws");
    const view = await serving(["view", ws, "--port", "0", "--no-open"]);
    const url = /^skillgym view: (http:\/\/127\.0\.0\.1:\d+\/) {2}/.exec(view.io.stdout())?.[1] as string;
    expect(view.io.stdout()).toBe(`skillgym view: ${url}  (${ws})\nCtrl-C stops it.\n`);
    expect(view.io.stderr()).toBe("");
    expect((await fetch(url)).status).toBe(200);
    expect(await view.stop("SIGINT")).toEqual({ code: 0, left: 0 });
    await expect(fetch(url)).rejects.toThrow();
  });

  it("takes a free port when the one asked for is taken, and opens the browser on it", async () => {
    const taken = await takenPort();
    await browser("opens");
    try {
      const ws = join(dir, "ws");
      const view = await serving(["view", ws, "--port", String(taken.port)]);
      const url = /^skillgym view: (http:\S+) /.exec(view.io.stdout())?.[1] as string;
      expect(url).not.toBe(`http://127.0.0.1:${taken.port}/`);
      expect(view.io.stderr()).toBe(`port ${taken.port} is taken; using ${new URL(url).port}\n`);
      expect(await view.stop("SIGTERM")).toEqual({ code: 0, left: 0 });
      expect(await readFile(join(dir, "opens/opened"), "utf8")).toBe(`${url}\n`);
    } finally {
      taken.server.close();
    }
  });

  it("says when no browser could be opened", async () => {
    await browser("fails");
    const view = await serving(["view", join(dir, "ws"), "--port", "0"]);
    const url = /^skillgym view: (http:\S+) /.exec(view.io.stdout())?.[1] as string;
    expect(view.io.stderr()).toBe(`could not open a browser; open ${url}\n`);
    expect(await view.stop("SIGINT")).toEqual({ code: 0, left: 0 });
  });

  it("writes one self-contained HTML file with --static", async () => {
    const file = join(dir, "out/view.html");
    expect(await cli(["view", join(dir, "ws"), "--static", file, "--no-open"])).toEqual({
      code: 0,
      stdout: `wrote ${file}\n`,
      stderr: "",
    });
    expect(await readFile(file, "utf8")).toMatch(/^<!doctype html>/i);
  });

  it("opens the file it wrote in the browser unless told not to", async () => {
    await browser("opens");
    const file = join(dir, "opened.html");
    expect(await cli(["view", join(dir, "ws"), "--static", file])).toEqual({
      code: 0,
      stdout: `wrote ${file}\n`,
      stderr: "",
    });
    expect(await readFile(join(dir, "opens/opened"), "utf8")).toBe(`${file}\n`);
  });

  it("opens nothing with --static and --no-open", async () => {
    await browser("opens");
    await cli(["view", join(dir, "ws"), "--static", join(dir, "unopened.html"), "--no-open"]);
    await expect(readFile(join(dir, "opens/opened"), "utf8")).rejects.toThrow(/ENOENT/);
  });
});

describe("skillgym view --triggers", () => {
  it("serves the skill's trigger queries for editing until Ctrl-C", async () => {
    const view = await serving(["view", join(dir, "notes"), "--triggers", "--port", "0", "--no-open"]);
    const url = /^skillgym view --triggers: (http:\/\/127\.0\.0\.1:\d+\/) {2}/.exec(
      view.io.stdout(),
    )?.[1] as string;
    expect(view.io.stdout()).toBe(
      `skillgym view --triggers: ${url}  (${join(dir, "notes/evals/triggers.json")})\nCtrl-C stops it.\n`,
    );
    expect(view.io.stderr()).toBe("");
    expect((await fetch(url)).status).toBe(200);
    expect(await view.stop("SIGINT")).toEqual({ code: 0, left: 0 });
  });

  it("takes a free port when the one asked for is taken, and says when no browser could be opened", async () => {
    const taken = await takenPort();
    await browser("fails");
    try {
      const view = await serving(["view", join(dir, "notes"), "--triggers", "--port", String(taken.port)]);
      const url = /^skillgym view --triggers: (http:\S+) /.exec(view.io.stdout())?.[1] as string;
      expect(view.io.stderr()).toBe(
        `port ${taken.port} is taken; using ${new URL(url).port}\ncould not open a browser; open ${url}\n`,
      );
      expect(await view.stop("SIGTERM")).toEqual({ code: 0, left: 0 });
    } finally {
      taken.server.close();
    }
  });

  it("has no --static form", async () => {
    expect(await cli(["view", join(dir, "notes"), "--triggers", "--static", join(dir, "t.html")])).toEqual({
      code: 2,
      stdout: "",
      stderr: "skillgym: --triggers edits files; it has no --static form\n",
    });
  });
});
