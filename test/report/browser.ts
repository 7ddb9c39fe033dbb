import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { findBrowser } from "./find-browser.js";

export const screenshotDir = join(import.meta.dirname, "__screenshots__");

/**
 * The browser `findBrowser` picks, headless, with a new empty profile; playwright-core never downloads a browser.
 * `bypassCSP` turns the page's Content-Security-Policy off, to prove escaping alone keeps hostile outputs inert.
 */
export async function launchBrowser(
  options: { bypassCSP?: boolean } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const browser = await findBrowser();
  const profile = await mkdtemp(join(tmpdir(), "skillgym-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browser.path,
    headless: true,
    viewport: { width: 1280, height: 900 },
    bypassCSP: options.bypassCSP ?? false,
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
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
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
