import { constants, createReadStream, createWriteStream } from "node:fs";
import { access, mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";

export type BrowserSource = "SKILLGYM_BROWSER" | "system" | "@sparticuz/chromium";

export interface BrowserLocation {
  path: string;
  source: BrowserSource;
}

export const systemBrowserNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

export class BrowserNotFoundError extends Error {
  readonly code = "BROWSER_NOT_FOUND";
  constructor(message: string) {
    super(message);
    this.name = "BrowserNotFoundError";
  }
}

export interface FindBrowserOptions {
  env?: NodeJS.ProcessEnv;
  /** Folder of the installed @sparticuz/chromium package; defaults to the one node_modules resolves. */
  packageDir?: string;
  /** Where the packaged Chromium is unpacked to. */
  cacheDir?: string;
}

/**
 * The browser the viewer's end-to-end tests drive: SKILLGYM_BROWSER, else a system Chromium or Chrome on PATH,
 * else the Chromium inside the @sparticuz/chromium devDependency, unpacked once from the npm package itself.
 */
export async function findBrowser(options: FindBrowserOptions = {}): Promise<BrowserLocation> {
  const env = options.env ?? process.env;
  const explicit = env.SKILLGYM_BROWSER;
  if (explicit !== undefined && explicit !== "") {
    if (!(await isExecutableFile(explicit))) {
      throw new BrowserNotFoundError(
        `SKILLGYM_BROWSER is ${explicit}, which is not an executable file.\nfix: point SKILLGYM_BROWSER at a Chromium or Chrome binary, or unset it to search PATH and then @sparticuz/chromium.`,
      );
    }
    return { path: explicit, source: "SKILLGYM_BROWSER" };
  }

  const pathDirs = (env.PATH ?? "").split(delimiter).filter((dir) => dir !== "");
  for (const name of systemBrowserNames) {
    for (const dir of pathDirs) {
      const candidate = join(dir, name);
      if (await isExecutableFile(candidate)) return { path: candidate, source: "system" };
    }
  }

  const packaged = await unpackPackagedChromium(options);
  if (typeof packaged === "string") return { path: packaged, source: "@sparticuz/chromium" };
  throw new BrowserNotFoundError(
    [
      "No browser for the browser tests. Tried, in order:",
      "  1. SKILLGYM_BROWSER: not set",
      `  2. ${systemBrowserNames.join(", ")} on PATH: none found`,
      `  3. @sparticuz/chromium: ${packaged.reason}`,
      "fix: run `npm install` (it installs @sparticuz/chromium), or set SKILLGYM_BROWSER to a Chromium binary.",
    ].join("\n"),
  );
}

// A bind-mounted /dev/null or a folder named like a browser is not a browser.
async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function installedPackageDir(): string | undefined {
  try {
    // The package's exports hide package.json; its CommonJS entry sits at build/cjs/index.cjs.
    const entry = createRequire(import.meta.url).resolve("@sparticuz/chromium");
    return join(dirname(entry), "..", "..");
  } catch {
    return undefined;
  }
}

// Unpacks to a temporary name and renames, so parallel test files never run a half-written binary.
async function unpackPackagedChromium(options: FindBrowserOptions): Promise<string | { reason: string }> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { reason: `ships a Linux x64 binary only, this is ${process.platform} ${process.arch}` };
  }
  const packageDir = options.packageDir ?? installedPackageDir();
  if (packageDir === undefined) return { reason: "not installed" };
  const compressed = join(packageDir, "bin", "chromium.br");
  let version: string;
  try {
    await access(compressed, constants.R_OK);
    version = (JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as { version: string })
      .version;
  } catch {
    return { reason: `no readable bin/chromium.br and package.json in ${packageDir}` };
  }
  const dir = join(options.cacheDir ?? tmpdir(), `skillgym-chromium-${version}`);
  const binary = join(dir, "chromium");
  if (await isExecutableFile(binary)) return binary;
  await mkdir(dir, { recursive: true });
  const partial = `${binary}.${process.pid}.partial`;
  try {
    await pipeline(
      createReadStream(compressed),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o755 }),
    );
    await rename(partial, binary);
  } catch (error) {
    await rm(partial, { force: true });
    return { reason: `could not unpack ${compressed} to ${dir}: ${(error as Error).message}` };
  }
  return binary;
}
