import { chmod, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openInBrowser } from "../../src/report/open-browser.js";
import { tempDir, writeFiles } from "./workspace-fixture.js";

// openInBrowser asks the desktop's opener (xdg-open, open, cmd) found on PATH. Here PATH holds only fake openers
// that write down their arguments and exit as a test tells them, so no browser starts.
let bin: Awaited<ReturnType<typeof tempDir>>;
const savedPath = process.env.PATH;
const url = "http://127.0.0.1:4567/?tab=runs&x=1";
const started: number[] = [];

// Each fake opener writes its arguments, one a line, to <name>.args, its process group to <name>.group and its pid
// to <name>.pid, then behaves as the file <name>.mode says: exit with that code, "wait", or "chatty" (a megabyte
// on each of stdout and stderr, then exit 3).
const opener = (name: string) => `#!/bin/sh
dir=$(dirname "$0")
: > "$dir/${name}.args"
for arg in "$@"; do printf '%s\\n' "$arg" >> "$dir/${name}.args"; done
cut -d' ' -f5 /proc/$$/stat > "$dir/${name}.group"
echo $$ > "$dir/${name}.pid"
mode=$(cat "$dir/${name}.mode")
if [ "$mode" = wait ]; then exec sleep 30; fi
if [ "$mode" = chatty ]; then head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2; exit 3; fi
exit $mode
`;

async function behave(name: string, mode: string): Promise<void> {
  await writeFiles(bin.dir, { [`${name}.mode`]: mode });
}

const argsOf = async (name: string) =>
  (await readFile(join(bin.dir, `${name}.args`), "utf8")).split("\n").slice(0, -1);

// The pid the fake opener wrote, once it has (a loaded machine may start it late).
async function pidOf(name: string): Promise<number> {
  for (;;) {
    const text = await readFile(join(bin.dir, `${name}.pid`), "utf8").catch(() => "");
    if (text.endsWith("\n")) return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  bin = await tempDir("skillgym-open-browser-");
  for (const name of ["xdg-open", "open", "cmd"]) {
    await writeFiles(bin.dir, { [name]: opener(name) });
    await chmod(join(bin.dir, name), 0o755);
  }
  process.env.PATH = `${bin.dir}:/usr/bin:/bin`;
});

afterEach(() => {
  process.env.PATH = `${bin.dir}:/usr/bin:/bin`;
});

afterAll(async () => {
  process.env.PATH = savedPath;
  for (const pid of started) {
    try {
      process.kill(pid);
    } catch {
      // already gone
    }
  }
  await bin?.cleanup();
});

describe("openInBrowser", () => {
  it("runs xdg-open with the URL on Linux and answers true when it exits 0", async () => {
    await behave("xdg-open", "0");
    expect(await openInBrowser(url, "linux", 60_000)).toBe(true);
    expect(await argsOf("xdg-open")).toEqual([url]);
  });

  it("runs open on macOS", async () => {
    await behave("open", "0");
    expect(await openInBrowser(url, "darwin", 60_000)).toBe(true);
    expect(await argsOf("open")).toEqual([url]);
  });

  it("runs cmd /c start with an empty window title on Windows", async () => {
    await behave("cmd", "0");
    expect(await openInBrowser(url, "win32", 60_000)).toBe(true);
    expect(await argsOf("cmd")).toEqual(["/c", "start", '""', url]);
  });

  it("uses xdg-open on the other systems too", async () => {
    await behave("xdg-open", "0");
    expect(await openInBrowser(url, "freebsd", 60_000)).toBe(true);
    expect(await argsOf("xdg-open")).toEqual([url]);
  });

  it("answers false when the opener fails", async () => {
    await behave("xdg-open", "3");
    expect(await openInBrowser(url, "linux", 60_000)).toBe(false);
    await behave("open", "1");
    expect(await openInBrowser(url, "darwin", 60_000)).toBe(false);
  });

  it("starts the opener in a process group of its own, so the viewer's Ctrl-C leaves the browser alone", async () => {
    await behave("xdg-open", "0");
    expect(await openInBrowser(url, "linux", 60_000)).toBe(true);
    const group = Number((await readFile(join(bin.dir, "xdg-open.group"), "utf8")).trim());
    expect(group).toBe(await pidOf("xdg-open"));
    expect(group).not.toBe(process.pid);
  });

  it("is not held up by an opener that writes a lot", async () => {
    await behave("xdg-open", "chatty");
    expect(await openInBrowser(url, "linux", 20_000)).toBe(false);
  });

  it("answers false when there is no opener", async () => {
    process.env.PATH = join(bin.dir, "nothing-here");
    expect(await openInBrowser(url, "linux", 60_000)).toBe(false);
  });

  it("answers false when the opener cannot even be started", async () => {
    expect(await openInBrowser("http://127.0.0.1/\0", "linux", 60_000)).toBe(false);
  });

  it("takes an opener still running after its patience to have worked, and leaves it running", async () => {
    await behave("xdg-open", "wait");
    await rm(join(bin.dir, "xdg-open.pid"), { force: true });
    const before = Date.now();
    expect(await openInBrowser(url, "linux", 300)).toBe(true);
    expect(Date.now() - before).toBeGreaterThanOrEqual(250);
    const pid = await pidOf("xdg-open");
    started.push(pid);
    expect(() => process.kill(pid, 0)).not.toThrow();
  });

  it("lets the viewer exit while the opener still runs and its patience lasts", async () => {
    await behave("xdg-open", "wait");
    await rm(join(bin.dir, "xdg-open.pid"), { force: true });
    const processes = () => process.getActiveResourcesInfo().filter((r) => r === "ProcessWrap").length;
    const before = processes();
    const patience: NodeJS.Timeout[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
      const timer = realSetTimeout(fn, ms);
      if (ms === 60_000) patience.push(timer);
      return timer;
    }) as typeof setTimeout);
    try {
      const opened = openInBrowser(url, "linux", 60_000);
      const pid = await pidOf("xdg-open");
      started.push(pid);
      await new Promise((resolve) => setImmediate(resolve));
      expect(processes()).toBe(before);
      expect(patience.map((t) => t.hasRef())).toEqual([false]);
      process.kill(pid);
      expect(await opened).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });
});
