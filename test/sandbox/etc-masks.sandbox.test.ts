import { spawnSync } from "node:child_process";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateBwrap, sandboxCommand, sandboxOfflineCommand } from "../../src/sandbox/index.js";
import { tempDir } from "../e2e/helpers.js";

// Real files under /etc (skillgym runs as root on CI: root inside the sandbox reads what root outside reads), made
// before this process first builds a sandbox, which is when /etc is walked.
const etc = `/etc/skillgym-mask-test-${process.pid}`;
const texts = { secret: "root-only-secret", key: "key-in-closed-folder", open: "world-readable-text" };
const script = `cat ${etc}/secret; cat ${etc}/private/key; cat ${etc}/open; ls ${etc}/private`;

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(etc, "private"), { recursive: true });
  await writeFile(join(etc, "secret"), texts.secret, { mode: 0o600 });
  await writeFile(join(etc, "open"), texts.open, { mode: 0o644 });
  await writeFile(join(etc, "private", "key"), texts.key, { mode: 0o644 });
  await chmod(join(etc, "private"), 0o700);
});
afterAll(async () => {
  await rm(etc, { recursive: true, force: true });
  await cleanup();
});

function run(wrapped: { command: string; args: string[]; env: NodeJS.ProcessEnv }) {
  return spawnSync(wrapped.command, wrapped.args, {
    cwd: dir,
    env: wrapped.env,
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("/etc inside the sandbox", () => {
  it("are read by root outside the sandbox (so modes alone protect nothing there)", () => {
    const plain = spawnSync("/bin/sh", ["-c", script], { encoding: "utf8" });
    expect(plain.stdout).toContain(texts.secret);
    expect(plain.stdout).toContain(texts.key);
  });

  it("hides a check's sandbox from root-only files and folders, and shows the world-readable ones", async () => {
    const bwrap = await locateBwrap();
    const inside = run(
      await sandboxOfflineCommand(
        { command: "/bin/sh", args: ["-c", script], env: process.env, cwd: dir },
        bwrap,
      ),
    );
    expect(inside.stdout).toContain(texts.open);
    expect(inside.stdout).not.toContain(texts.secret);
    expect(inside.stdout).not.toContain(texts.key);
    expect(inside.stdout).not.toContain("key");
  });

  it("hides an agent's sandbox from them too", async () => {
    const bwrap = await locateBwrap();
    const home = join(dir, "home");
    await mkdir(home, { recursive: true });
    const wrapped = await sandboxCommand(
      { command: "/bin/sh", args: ["-c", script], env: process.env, cwd: dir, home },
      { bwrap, network: { kind: "simulator", url: "http://127.0.0.1:9" } },
    );
    try {
      const inside = run(wrapped);
      expect(inside.stdout).toContain(texts.open);
      expect(inside.stdout).not.toContain(texts.secret);
      expect(inside.stdout).not.toContain(texts.key);
    } finally {
      await wrapped.close();
    }
  });
});
