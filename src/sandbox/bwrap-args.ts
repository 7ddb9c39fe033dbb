/** A top-level system folder as the host has it: a real folder (bound read-only) or a link (made again inside). */
export interface SystemEntry {
  path: string;
  /** The link's target when the entry is a symbolic link (`/lib` → `usr/lib`). */
  link?: string;
}

/** What one sandboxed run may see, every path absolute and as it is on the host. */
export interface SandboxLayout {
  /** The system's read-only parts that exist on this host (/usr, /lib*, /bin, /sbin, /etc). */
  system: readonly SystemEntry[];
  /** Files under the system parts covered by an empty file (/etc/shadow, …). */
  masked: readonly string[];
  /** Folders under the system parts covered by an empty read-only folder (/etc/ssl/private, …). */
  maskedFolders?: readonly string[];
  /** Folders bound read-only after the private /tmp: the agent's install, the Node running the forwarder. */
  readOnly: readonly string[];
  /** The run's workspace and home, writable at their own paths. */
  writable: readonly string[];
  /** Empty folders made in the private /tmp (a check's home). */
  made?: readonly string[];
  /** The folder holding the network socket on the host, at `SOCKET_MOUNT` inside; none: no network at all. */
  socketDir?: string;
  cwd: string;
}

/** Where the run's network socket folder appears inside the sandbox. */
export const SOCKET_MOUNT = "/run/skillgym-net";

/** The system folders a sandbox may read, when the host has them. */
export const SYSTEM_FOLDERS = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
] as const;

/** Secrets under the system folders that no run may read. */
export const MASKED_FILES = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/sudoers",
] as const;

// bwrap applies its mounts in order: the private /tmp comes before the run's folders, which usually live under it.
export function bwrapArgs(layout: SandboxLayout): string[] {
  const args = ["--unshare-all", "--die-with-parent"];
  for (const entry of layout.system) {
    if (entry.link !== undefined) args.push("--symlink", entry.link, entry.path);
    else args.push("--ro-bind", entry.path, entry.path);
  }
  for (const file of layout.masked) args.push("--ro-bind", "/dev/null", file);
  for (const dir of layout.maskedFolders ?? []) args.push("--tmpfs", dir, "--remount-ro", dir);
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  for (const dir of layout.made ?? []) args.push("--dir", dir);
  for (const dir of layout.readOnly) args.push("--ro-bind", dir, dir);
  for (const dir of layout.writable) args.push("--bind", dir, dir);
  if (layout.socketDir !== undefined) args.push("--bind", layout.socketDir, SOCKET_MOUNT);
  args.push("--chdir", layout.cwd);
  return args;
}
