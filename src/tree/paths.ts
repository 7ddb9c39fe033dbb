import * as path from "node:path";
import { SkillgymError } from "../errors.js";

export function toPosix(relative: string): string {
  return relative.split(path.sep).join("/");
}

/** Where `target` sits inside `root` as a POSIX path (`""` for the root itself), or undefined when outside. */
export function relativeInside(root: string, target: string): string | undefined {
  const rel = path.relative(path.resolve(root), path.resolve(target));
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return toPosix(rel);
}

export function isAtOrUnder(relPosix: string, prefix: string): boolean {
  return relPosix === prefix || relPosix.startsWith(`${prefix}/`);
}

// Plans and manifests carry POSIX paths; one that is absolute or climbs out must never reach the file system.
export function resolveInside(root: string, relPosix: string, what: string): string {
  const segments = relPosix.split("/").filter((s) => s !== "" && s !== ".");
  // Stryker disable next-line LogicalOperator: equivalent on POSIX, where a path is absolute exactly when it starts with "/"
  const absolute = relPosix.startsWith("/") || path.isAbsolute(relPosix) || /^[A-Za-z]:/.test(relPosix);
  if (absolute || segments.length === 0 || segments.includes("..")) {
    throw new SkillgymError(
      "WORKSPACE",
      `${what} ${JSON.stringify(relPosix)} must be a relative path inside ${root}`,
      {
        hint: "use a relative POSIX path without '..'",
      },
    );
  }
  return path.join(root, ...segments);
}
