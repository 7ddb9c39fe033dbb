import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { cliFlags } from "./cli-flags.js";
import { anchors, links, sections, splitFences } from "./markdown.js";
import { docPages, root } from "./pages.js";

const pages = docPages();
const readme = pages.find((p) => p.path === "README.md")?.text ?? "";
const docs = pages.filter((p) => p.path.startsWith("docs/"));

describe("the README is a front door", () => {
  it("is at most 250 lines", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(250);
  });

  it("opens with the two set-up commands, then the offline quick start, runnable", () => {
    const [, setUp, quickStart] = sections(readme);
    expect(setUp?.heading).toBe("Set up");
    const commands = setUp?.fences.flatMap((f) => f.lines.map((l) => l.replace(/\s+#.*$/, "").trim()));
    expect(commands).toEqual(["npm install", "npm test"]);
    expect(quickStart?.heading).toMatch(/^Quick start/);
    expect(quickStart?.fences.map((f) => f.info)).toContain("sh runnable");
    expect(quickStart?.fences.map((f) => f.info)).toContain("text output");
  });

  it("links to every page of docs/", () => {
    const targets = new Set(links(readme).map((l) => l.target.split("#")[0]));
    expect(docs.map((p) => p.path).filter((path) => !targets.has(path))).toEqual([]);
  });

  it("lists every command, linked to its section of docs/commands.md", () => {
    const targets = new Set(links(readme).map((l) => l.target));
    const missing = [...cliFlags().keys()].filter((c) => !targets.has(`docs/commands.md#skillgym-${c}`));
    expect(missing).toEqual([]);
  });
});

describe("every page", () => {
  it.each(docs.map((p) => [p.path, p] as const))(
    "%s starts with a title and a sentence on what it is for",
    (_, page) => {
      const lines = splitFences(page.text).prose;
      expect(lines[0]).toMatch(/^# \S/);
      const first = lines.slice(1).find((l) => l.trim() !== "") ?? "";
      expect(first).toMatch(/^[A-Z`]/);
      expect(first).not.toMatch(/^(#|[-*] |\||!\[)/);
    },
  );

  it.each(pages.map((p) => [p.path, p] as const))(
    "%s: every relative link and anchor resolves",
    (_, page) => {
      const broken: string[] = [];
      for (const { target, line } of links(page.text)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [file = "", anchor] = target.split("#");
        const path = file === "" ? page.path : normalize(join(dirname(page.path), file));
        if (!existsSync(join(root, path))) {
          broken.push(`${line}: ${target} (no ${path})`);
          continue;
        }
        if (anchor && path.endsWith(".md") && !anchors(readFileSync(join(root, path), "utf8")).has(anchor))
          broken.push(`${line}: ${target} (no heading #${anchor} in ${path})`);
      }
      expect(broken).toEqual([]);
    },
  );
});
