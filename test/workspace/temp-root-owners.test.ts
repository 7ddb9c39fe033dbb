import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sweepStaleTempRoots } from "../../src/workspace/temp-root.js";

let parent: string;
const started: ChildProcess[] = [];
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), "skillgym-temp-owners-test-"));
});
afterEach(async () => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  await rm(parent, { recursive: true, force: true });
});

// Fields of /proc/<pid>/stat after the command name: [0] is the state, [19] the start time.
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

async function root(name: string): Promise<string> {
  const dir = join(parent, name);
  await mkdir(join(dir, "home"), { recursive: true });
  await writeFile(join(dir, "home", "settings.json"), "{}", "utf8");
  return dir;
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error("the process never reached the state waited for");
}

// A built file and every file it imports by a relative path, copied from `from` to `to`.
async function copyBuilt(from: string, to: string, file: string, seen = new Set<string>()): Promise<void> {
  if (seen.has(file)) return;
  seen.add(file);
  const text = await readFile(join(from, file), "utf8");
  await mkdir(dirname(join(to, file)), { recursive: true });
  await writeFile(join(to, file), text, "utf8");
  for (const [, relative] of text.matchAll(/from "(\.{1,2}\/[^"]+)"/g))
    await copyBuilt(from, to, join(dirname(file), relative ?? ""), seen);
}

// A process of another user, when there is one: it answers a signal with EPERM.
function otherUsersProcess(): number | undefined {
  const uid = process.getuid?.();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (statSync(`/proc/${entry}`).uid !== uid && statFields(Number(entry))[0] !== "Z")
        return Number(entry);
    } catch {}
  }
  return undefined;
}

describe.skipIf(process.platform !== "linux")("sweeping the temp roots of owners that are gone", () => {
  it("removes the root of a zombie owner: it exited, only its parent has not reaped it", async () => {
    // `sleep 0.3` exits in the background of a shell that has become `sleep 30`, which never reaps it. (A child that
    // exits at once may be reaped by the shell before its exec, on a busy machine: then there is no zombie.)
    const shell = spawn("sh", ["-c", "sleep 0.3 & echo $!; exec sleep 30"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    started.push(shell);
    const zombie = await new Promise<number>((resolve) =>
      shell.stdout.once("data", (d) => resolve(Number(String(d)))),
    );
    await waitFor(() => statFields(zombie)[0] === "Z");
    const stale = await root(`skillgym-run.${zombie}.${statFields(zombie)[19]}-abc123`);
    // A name that records no start time does not make a zombie owner alive.
    const staleNoStart = await root(`skillgym-run.${zombie}.0-abc123`);

    expect((await sweepStaleTempRoots(parent)).sort()).toEqual([stale, staleNoStart].sort());
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staleNoStart)).toBe(false);
  });

  it("keeps the root of an owner that is alive but answers EPERM (another user's process)", async (ctx) => {
    if (process.getuid?.() === 0) {
      // As root, the sweep runs as nobody, for whom this (root's) test process answers EPERM. Everything is
      // writable by nobody, so only the owner check keeps the root.
      const ours = await root(`skillgym-run.${process.pid}.${statFields(process.pid)[19]}-abc123`);
      for (const dir of [parent, ours, join(ours, "home")]) await chmod(dir, 0o777);
      await chmod(join(ours, "home", "settings.json"), 0o666);
      // The built module, copied where nobody can read it (the checkout may lie in a folder only root enters).
      const code = join(parent, "code");
      await copyBuilt(join(process.cwd(), "dist"), code, join("workspace", "temp-root.js"));
      const built = pathToFileURL(join(code, "workspace", "temp-root.js")).href;
      const script = `const { sweepStaleTempRoots } = await import(${JSON.stringify(built)});
        process.stdout.write(JSON.stringify(await sweepStaleTempRoots(${JSON.stringify(parent)})));`;
      const sweepAsNobody = (node: string) =>
        spawnSync(node, ["--input-type=module", "-e", script], {
          cwd: parent,
          uid: 65534,
          gid: 65534,
          encoding: "utf8",
        });
      let sweep = sweepAsNobody(process.execPath);
      if ((sweep.error as NodeJS.ErrnoException | undefined)?.code === "EACCES") {
        // This Node lies where nobody cannot enter (npx's cache under /root, as StrykerJS runs it): a copy of it.
        const node = join(parent, "node");
        await copyFile(process.execPath, node);
        await chmod(node, 0o755);
        sweep = sweepAsNobody(node);
      }
      expect(sweep.status, sweep.stderr).toBe(0);
      expect(JSON.parse(sweep.stdout)).toEqual([]);
      expect(existsSync(ours)).toBe(true);
      return;
    }
    const other = otherUsersProcess();
    if (other === undefined) return ctx.skip();
    const theirs = await root(`skillgym-run.${other}.${statFields(other)[19]}-abc123`);
    expect(await sweepStaleTempRoots(parent)).toEqual([]);
    expect(existsSync(theirs)).toBe(true);
  });

  it("keeps the root of a live owner in another PID namespace (a container sharing the temp folder)", async (ctx) => {
    // The owner is PID 1 of a namespace of its own: here PID 1 is another process, alive, with another start.
    const built = pathToFileURL(join(process.cwd(), "dist", "workspace", "temp-root.js")).href;
    const script = `const { createTempRoot } = await import(${JSON.stringify(built)});
      process.stdout.write(await createTempRoot("run", { parent: ${JSON.stringify(parent)} }) + "\\n");
      setInterval(() => {}, 1000);`;
    const unshare = [
      "--pid",
      "--fork",
      "--kill-child",
      "--mount-proc",
      process.execPath,
      "--input-type=module",
    ];
    const owner = spawn("unshare", [...unshare, "-e", script], { stdio: ["ignore", "pipe", "ignore"] });
    started.push(owner);
    const made = await new Promise<string | undefined>((resolve) => {
      let out = "";
      owner.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("\n")) resolve(out.trim());
      });
      owner.on("close", () => resolve(undefined));
      owner.on("error", () => resolve(undefined));
    });
    // No right to make a PID namespace here (not root, no user namespaces), or no unshare.
    if (made === undefined) return ctx.skip();
    expect(made.startsWith(join(parent, "skillgym-run.1."))).toBe(true);
    expect(await sweepStaleTempRoots(parent)).toEqual([]);
    expect(existsSync(made)).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0 || typeof process.seteuid !== "function")(
    "trusts an owner that answers EPERM to be alive, whatever start time its root's name records",
    async () => {
      // Root may signal any process: here the sweep runs as nobody, and the owner is a third user's process.
      const owner = spawn("sleep", ["30"], { uid: 1, gid: 1, stdio: "ignore" });
      started.push(owner);
      const pid = owner.pid ?? 0;
      await waitFor(() => existsSync(`/proc/${pid}`) && statSync(`/proc/${pid}`).uid === 1);
      const theirs = join(parent, `skillgym-run.${pid}.1-abc123`);
      await mkdir(theirs);
      await chmod(parent, 0o777);
      process.seteuid?.(65534);
      let removed: string[];
      try {
        removed = await sweepStaleTempRoots(parent);
      } finally {
        process.seteuid?.(0);
      }
      expect(removed).toEqual([]);
      expect(existsSync(theirs)).toBe(true);
    },
  );
});
