import { join } from "node:path";
import { firstRunnable } from "../../executables.js";
import { installedVersion, locateBinary, packageDir } from "../binary-lookup.js";

const PACKAGE = "@github/copilot";
export const INSTALL_COMMAND = `npm install ${PACKAGE}`;

const exe = process.platform === "win32" ? ".exe" : "";

// glibc reports its version in the process report; a Linux without it is musl (Alpine), as `detect-libc` decides.
function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return !report?.header?.glibcVersionRuntime;
}

// The native binary of the platform package (`@github/copilot-<platform>-<arch>`), as the package's npm-loader.js
// finds it; calling it directly skips a Node start-up.
function bundledCandidates(): string[] {
  const platforms =
    process.platform === "linux" ? (isMusl() ? ["linuxmusl", "linux"] : ["linux"]) : [process.platform];
  const native = platforms
    .map((platform) => packageDir(`${PACKAGE}-${platform}-${process.arch}`))
    .filter((dir): dir is string => dir !== undefined)
    .map((dir) => join(dir, `copilot${exe}`));
  const loader = packageDir(PACKAGE);
  return [...native, ...(loader ? [join(loader, "npm-loader.js")] : [])];
}

/** Finds GitHub Copilot CLI: an explicit path, then the native binary npm installed, then `copilot` on PATH. */
export function locateCopilot(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return locateBinary(explicit, env, {
    label: "GitHub Copilot CLI",
    command: "copilot",
    install: INSTALL_COMMAND,
    bundled: () => firstRunnable(bundledCandidates()),
  });
}

/** How to start a binary: the npm loader (JavaScript) runs under this Node. */
export function commandLine(binary: string, args: string[]): { command: string; args: string[] } {
  if (/\.[cm]?js$/.test(binary)) return { command: process.execPath, args: [binary, ...args] };
  return { command: binary, args };
}

/** The version in the package.json beside a binary npm installed; undefined for any other binary. */
export function copilotVersion(binary: string): Promise<string | undefined> {
  return installedVersion(binary, 1, (pkg) => typeof pkg.name === "string" && pkg.name.startsWith(PACKAGE));
}
