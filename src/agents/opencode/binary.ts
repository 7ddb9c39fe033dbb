import { join } from "node:path";
import { firstRunnable } from "../../executables.js";
import { installedVersion, locateBinary, packageDir } from "../binary-lookup.js";

const PACKAGE = "opencode-ai";
export const INSTALL_COMMAND = `npm install ${PACKAGE}`;

const exe = process.platform === "win32" ? ".exe" : "";
// The `opencode-ai` package's own bin/opencode.exe is a 479-byte script until its postinstall links the real one.
const MIN_BINARY_BYTES = 1_000_000;

// The platform packages npm installs (`opencode-<os>-<arch>[-baseline][-musl]`), each holding the native binary.
function bundledCandidates(): string[] {
  const os = process.platform === "win32" ? "windows" : process.platform;
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
): Promise<string> {
  return locateBinary(explicit, env, {
    label: "OpenCode",
    command: "opencode",
    install: INSTALL_COMMAND,
    bundled: () => firstRunnable(bundledCandidates(), MIN_BINARY_BYTES),
    minBytes: MIN_BINARY_BYTES,
  });
}

/** The version of a binary npm installed (its platform package's, or the wrapper's); else undefined. */
export function openCodeVersion(binary: string): Promise<string | undefined> {
  return installedVersion(
    binary,
    2,
    (pkg) => typeof pkg.name === "string" && (pkg.name === PACKAGE || pkg.name.startsWith("opencode-")),
  );
}
