import { join } from "node:path";
import { firstRunnable } from "../../executables.js";
import { packageDir as installedPackageDir, installedVersion, locateBinary } from "../binary-lookup.js";

const PACKAGE = "opencode-ai";
export const INSTALL_COMMAND = `npm install ${PACKAGE}`;

// The `opencode-ai` package's own bin/opencode.exe is a 479-byte script until its postinstall links the real one.
const MIN_BINARY_BYTES = 1_000_000;

/**
 * The native binaries of the platform packages npm installs (`opencode-<os>-<arch>[-baseline][-musl]`), then the
 * one the `opencode-ai` package links; `packageDir` finds an installed package's folder.
 */
export function bundledCandidates(
  platform: NodeJS.Platform = process.platform,
  packageDir: (name: string) => string | undefined = installedPackageDir,
): string[] {
  const windows = platform === "win32";
  const exe = windows ? ".exe" : "";
  const os = windows ? "windows" : platform;
  const base = `opencode-${os}-${process.arch}`;
  const variants = [base, `${base}-baseline`, `${base}-musl`, `${base}-baseline-musl`];
  const platformBinaries = variants
    .map((name) => packageDir(name))
    .filter((dir): dir is string => dir !== undefined)
    .map((dir) => join(dir, "bin", `opencode${exe}`));
  const wrapper = packageDir(PACKAGE);
  return [...platformBinaries, ...(wrapper ? [join(wrapper, "bin", "opencode.exe")] : [])];
}

/** Finds OpenCode: an explicit path, then the native binary npm installed, then `opencode` on PATH. */
export function locateOpenCode(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  candidates: () => string[] = bundledCandidates,
): Promise<string> {
  return locateBinary(explicit, env, {
    label: "OpenCode",
    command: "opencode",
    install: INSTALL_COMMAND,
    bundled: () => firstRunnable(candidates(), MIN_BINARY_BYTES),
    minBytes: MIN_BINARY_BYTES,
  });
}

/** The version of a binary npm installed (its platform package's, or the wrapper's); else undefined. */
export function openCodeVersion(binary: string): Promise<string | undefined> {
  return installedVersion(
    binary,
    2,
    // opencode-ai and the platform packages alike.
    (pkg) => typeof pkg.name === "string" && pkg.name.startsWith("opencode-"),
  );
}
