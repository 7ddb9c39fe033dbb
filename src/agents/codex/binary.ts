import { join } from "node:path";
import { firstRunnable } from "../../executables.js";
import { packageDir as installedPackageDir, installedVersion, locateBinary } from "../binary-lookup.js";

export const INSTALL_COMMAND = "npm install @openai/codex";

// The npm package's platform packages (`@openai/codex-<platform>`) and the Rust target each one ships.
const TARGETS: Record<string, string> = {
  "linux-x64": "x86_64-unknown-linux-musl",
  "linux-arm64": "aarch64-unknown-linux-musl",
  "darwin-x64": "x86_64-apple-darwin",
  "darwin-arm64": "aarch64-apple-darwin",
  "win32-x64": "x86_64-pc-windows-msvc",
  "win32-arm64": "aarch64-pc-windows-msvc",
};

// The native binary of the platform package: calling it directly skips the npm wrapper's Node start-up (~0.3 s a run).
export function bundledCandidates(
  platform: NodeJS.Platform = process.platform,
  packageDir: (name: string) => string | undefined = installedPackageDir,
): string[] {
  const exe = platform === "win32" ? ".exe" : "";
  const key = `${platform}-${process.arch}`;
  const target = TARGETS[key];
  if (!target) return [];
  return [packageDir(`@openai/codex-${key}`), packageDir("@openai/codex")]
    .filter((dir): dir is string => dir !== undefined)
    .map((dir) => join(dir, "vendor", target, "bin", `codex${exe}`));
}

/** Finds the Codex CLI: an explicit path, then the native binary npm installed, then `codex` on PATH. */
export function locateCodex(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  candidates: () => string[] = bundledCandidates,
): Promise<string> {
  return locateBinary(explicit, env, {
    label: "Codex CLI",
    command: "codex",
    install: INSTALL_COMMAND,
    bundled: () => firstRunnable(candidates()),
  });
}

/** The version of a binary npm installed (from its package's codex-package.json or package.json); else undefined. */
export async function codexVersion(binary: string): Promise<string | undefined> {
  const version = await installedVersion(
    binary,
    4,
    (pkg) =>
      typeof pkg.version === "string" &&
      (pkg.variant === "codex" || (typeof pkg.name === "string" && pkg.name.startsWith("@openai/codex"))),
    ["codex-package.json", "package.json"],
  );
  // Stryker disable next-line Regex: equivalent, `.*` runs to the end of a version either way (no line breaks)
  return version?.replace(/-[a-z].*$/, "");
}
