import { posix } from "node:path";

export type WorkspacePath = { ok: true; path: string } | { ok: false; reason: string };

// Paths inside a run's workspace are written the same on every platform: POSIX, relative, never escaping.
export function toWorkspacePath(entry: string): WorkspacePath {
  const slashed = entry.replaceAll("\\", "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) {
    return { ok: false, reason: "must be a relative path, not an absolute one" };
  }
  // Stryker disable next-line Regex: equivalent, normalize has already merged repeated slashes
  const normalized = posix.normalize(slashed).replace(/\/+$/, "");
  if (normalized === ".." || normalized.startsWith("../")) {
    return { ok: false, reason: "must stay inside the workspace (it climbs out with '..')" };
  }
  if (normalized === ".") return { ok: false, reason: "must name a file, not the workspace itself" };
  return { ok: true, path: normalized };
}
