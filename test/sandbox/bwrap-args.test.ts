import { describe, expect, it } from "vitest";
import {
  bwrapArgs,
  CHECK_HOME,
  MASKED_FILES,
  SOCKET_MOUNT,
  sandboxOfflineCommand,
} from "../../src/sandbox/index.js";

const layout = {
  system: [{ path: "/usr" }, { path: "/lib", link: "usr/lib" }, { path: "/etc" }],
  masked: ["/etc/shadow", "/etc/gshadow"],
  readOnly: ["/opt/app/node_modules"],
  writable: ["/tmp/skillgym-run.1/a/work", "/tmp/skillgym-run.1/a/home"],
  socketDir: "/tmp/skillgym-net-x",
  cwd: "/tmp/skillgym-run.1/a/work",
};

// The mounts as [flag, source, destination] triples, in bwrap's order.
function mounts(args: string[]): string[][] {
  const found: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] ?? "";
    if (["--ro-bind", "--bind", "--symlink"].includes(flag))
      found.push([flag, args[++i] ?? "", args[++i] ?? ""]);
    else if (["--tmpfs", "--proc", "--dev"].includes(flag)) found.push([flag, args[++i] ?? ""]);
  }
  return found;
}

describe("bwrap arguments", () => {
  const args = bwrapArgs(layout);
  const all = mounts(args);

  it("shares no namespace and dies with skillgym", () => {
    expect(args.slice(0, 2)).toEqual(["--unshare-all", "--die-with-parent"]);
    expect(args).not.toContain("--share-net");
  });

  it("binds the system read-only, makes its links again, and covers the secrets with an empty file", () => {
    expect(all).toContainEqual(["--ro-bind", "/usr", "/usr"]);
    expect(all).toContainEqual(["--symlink", "usr/lib", "/lib"]);
    expect(all).toContainEqual(["--ro-bind", "/dev/null", "/etc/shadow"]);
    expect(all).toContainEqual(["--ro-bind", "/dev/null", "/etc/gshadow"]);
    const etc = all.findIndex((m) => m[2] === "/etc");
    const shadow = all.findIndex((m) => m[2] === "/etc/shadow");
    expect(shadow).toBeGreaterThan(etc);
    expect(MASKED_FILES).toEqual(expect.arrayContaining(["/etc/shadow", "/etc/gshadow"]));
  });

  it("writes only the run's workspace and home, at their own paths, after a private /tmp", () => {
    const writable = all.filter((m) => m[0] === "--bind" && m[1] !== layout.socketDir);
    expect(writable).toEqual(layout.writable.map((p) => ["--bind", p, p]));
    const tmp = all.findIndex((m) => m[0] === "--tmpfs" && m[1] === "/tmp");
    expect(tmp).toBeGreaterThan(-1);
    for (const path of layout.writable) expect(all.findIndex((m) => m[2] === path)).toBeGreaterThan(tmp);
    expect(all).toContainEqual(["--ro-bind", "/opt/app/node_modules", "/opt/app/node_modules"]);
    expect(all).toContainEqual(["--bind", layout.socketDir, SOCKET_MOUNT]);
    expect(args.slice(-2)).toEqual(["--chdir", layout.cwd]);
  });

  it("is exactly these arguments, in this order", () => {
    expect(bwrapArgs({ ...layout, maskedFolders: ["/etc/ssl/private"], made: ["/tmp/home"] })).toEqual([
      "--unshare-all",
      "--die-with-parent",
      "--ro-bind",
      "/usr",
      "/usr",
      "--symlink",
      "usr/lib",
      "/lib",
      "--ro-bind",
      "/etc",
      "/etc",
      "--ro-bind",
      "/dev/null",
      "/etc/shadow",
      "--ro-bind",
      "/dev/null",
      "/etc/gshadow",
      "--tmpfs",
      "/etc/ssl/private",
      "--remount-ro",
      "/etc/ssl/private",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--tmpfs",
      "/tmp",
      "--dir",
      "/tmp/home",
      "--ro-bind",
      "/opt/app/node_modules",
      "/opt/app/node_modules",
      "--bind",
      "/tmp/skillgym-run.1/a/work",
      "/tmp/skillgym-run.1/a/work",
      "--bind",
      "/tmp/skillgym-run.1/a/home",
      "/tmp/skillgym-run.1/a/home",
      "--bind",
      "/tmp/skillgym-net-x",
      SOCKET_MOUNT,
      "--chdir",
      "/tmp/skillgym-run.1/a/work",
    ]);
    expect(SOCKET_MOUNT).toBe("/run/skillgym-net");
  });

  it("binds no socket folder and makes no folder when the layout names none", () => {
    const { socketDir: _, ...offline } = layout;
    const args = bwrapArgs(offline);
    expect(args).not.toContain(SOCKET_MOUNT);
    expect(args).not.toContain("--dir");
    expect(args).not.toContain("--remount-ro");
    expect(args.filter((a) => a === "--bind")).toHaveLength(2);
  });

  it("never shows the real home, the root or other runs", () => {
    const destinations = all.map((m) => m[m.length - 1]);
    for (const hidden of ["/", "/root", "/home", process.env.HOME ?? "/root", "/tmp/skillgym-run.1"])
      expect(destinations).not.toContain(hidden);
  });
});

describe("bwrap arguments of a check's sandbox (no network)", () => {
  const workspace = "/tmp/skillgym-grade.1.2-abcdef/work";
  const check = () =>
    sandboxOfflineCommand(
      {
        command: "/bin/sh",
        args: ["-c", "cat /root/x"],
        env: { HOME: "/root", PATH: "/usr/bin" },
        cwd: workspace,
      },
      "/usr/bin/bwrap",
    );

  it("shares no namespace, starts no forwarder and binds no network socket", async () => {
    const wrapped = await check();
    expect(wrapped.command).toBe("/usr/bin/bwrap");
    expect(wrapped.args.slice(0, 2)).toEqual(["--unshare-all", "--die-with-parent"]);
    expect(wrapped.args).not.toContain("--share-net");
    expect(wrapped.args).not.toContain(SOCKET_MOUNT);
    const end = wrapped.args.indexOf("--");
    expect(wrapped.args.slice(end + 1)).toEqual(["/bin/sh", "-c", "cat /root/x"]);
  });

  it("writes only the workspace; home and /tmp are private and empty; the system as for an agent", async () => {
    const wrapped = await check();
    const all = mounts(wrapped.args.slice(0, wrapped.args.indexOf("--")));
    expect(all.filter((m) => m[0] === "--bind")).toEqual([["--bind", workspace, workspace]]);
    const tmp = all.findIndex((m) => m[0] === "--tmpfs" && m[1] === "/tmp");
    expect(all.findIndex((m) => m[2] === workspace)).toBeGreaterThan(tmp);
    expect(wrapped.args).toEqual(expect.arrayContaining(["--dir", CHECK_HOME]));
    expect(wrapped.env).toMatchObject({ HOME: CHECK_HOME, TMPDIR: "/tmp", PATH: "/usr/bin" });
    expect(all).toContainEqual(["--ro-bind", "/usr", "/usr"]);
    expect(all).toContainEqual(["--ro-bind", "/dev/null", "/etc/shadow"]);
    expect(all.map((m) => m[m.length - 1])).not.toContain("/root");
    expect(wrapped.args.slice(0, wrapped.args.indexOf("--")).slice(-2)).toEqual(["--chdir", workspace]);
  });

  it("covers a closed system folder with an empty read-only one", () => {
    const args = bwrapArgs({ ...layout, maskedFolders: ["/etc/ssl/private"] });
    const at = args.indexOf("/etc/ssl/private");
    expect(args.slice(at - 1, at + 3)).toEqual([
      "--tmpfs",
      "/etc/ssl/private",
      "--remount-ro",
      "/etc/ssl/private",
    ]);
    expect(at).toBeGreaterThan(args.lastIndexOf("/etc"));
  });
});
