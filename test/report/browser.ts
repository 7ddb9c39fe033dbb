import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { findBrowser } from "./find-browser.js";

export const screenshotDir = join(import.meta.dirname, "__screenshots__");

let launched: Promise<Browser> | undefined;

// One Chromium per test worker, launched by the first file that needs it and kept (a launch costs about 1.5 CPU-s);
// playwright closes it when the worker exits. Each file gets a context of its own, which shares nothing with another
// file's: no cookies, storage, downloads or pages.
function sharedBrowser(): Promise<Browser> {
  launched ??= findBrowser().then(async (found) => {
    const browser = await chromium.launch({
      executablePath: found.path,
      headless: true,
      handleSIGTERM: false,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    // vitest ends a worker with SIGTERM, then SIGKILL half a second later: a graceful close (playwright's own SIGTERM
    // handling) does not finish in time and leaves the browser's profile folder behind. Exiting at once runs
    // playwright's exit handler instead, which kills the browser and removes that folder before the process ends.
    process.once("SIGTERM", () => process.exit(143));
    // A browser that crashed or was closed is launched again for the next file.
    browser.on("disconnected", () => {
      launched = undefined;
    });
    return browser;
  });
  launched.catch(() => {
    launched = undefined;
  });
  return launched;
}

/**
 * A new, empty browser context in the browser `findBrowser` picks, headless; playwright-core never downloads a
 * browser. `bypassCSP` turns the page's Content-Security-Policy off, to prove escaping alone keeps hostile outputs
 * inert.
 */
export async function launchBrowser(
  options: { bypassCSP?: boolean } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const browser = await sharedBrowser();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    bypassCSP: options.bypassCSP ?? false,
    acceptDownloads: true,
  });
  return { context, close: () => context.close() };
}

/** A new page that records every script error and console error, so a test can assert there were none. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return { page, errors };
}

export async function waitReady(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
  await page.waitForSelector("#run-view:not([aria-busy])", { timeout: 15_000 });
}

export async function saveScreenshot(page: Page, name: string, fullPage = true): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  await writeFile(join(screenshotDir, ".gitignore"), "*\n");
  const file = join(screenshotDir, `${name}.png`);
  await page.evaluate("window.scrollTo(0, 0)");
  await page.screenshot({ path: file, fullPage });
  return file;
}
