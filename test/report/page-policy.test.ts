import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  embeddableJson,
  renderViewerPage,
  viewerPolicy,
  viewerScript,
} from "../../src/report/page/page-html.js";
import type { StaticViewData } from "../../src/report/view-model.js";

const hash = `'sha256-${createHash("sha256").update(viewerScript, "utf8").digest("base64")}'`;

const data: StaticViewData = {
  key: "k",
  workspace: { skill_name: "demo", path: "/w", shown: [], iterations: [] },
  iterations: {},
  runs: {},
  tunes: { workspace: false, tunes: [] },
  catalogs: { catalogs: [] },
};

// The page as a string: its policy and the parts the server and a static file differ in. What its script does in a
// browser is checked by the e2e tests, not here.
describe("the page's policy", () => {
  it("lets the served page load its own files and talk to its server only", () => {
    expect(viewerPolicy("server")).toBe(
      `default-src 'none'; script-src ${hash}; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'`,
    );
  });

  it("lets a static file talk to nothing", () => {
    expect(viewerPolicy("static")).toBe(
      `default-src 'none'; script-src ${hash}; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'`,
    );
  });
});

describe("embeddableJson", () => {
  it("escapes <, U+2028 and U+2029, every one, and nothing else", () => {
    expect(embeddableJson({ a: "<<\u2028\u2028\u2029\u2029>" })).toBe(
      '{"a":"\\u003c\\u003c\\u2028\\u2028\\u2029\\u2029>"}',
    );
  });
});

describe("renderViewerPage", () => {
  it("carries the static policy in a meta element, escaped, and the data before the script", () => {
    const html = renderViewerPage({ title: "t", data });
    const policy = viewerPolicy("static").replaceAll("'", "&#39;");
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${policy}">\n<meta name="viewport"`,
    );
    expect(html).toContain(
      `<script type="application/json" id="skillgym-data">${embeddableJson(data)}</script>\n<script>`,
    );
  });

  it("served, starts with its head and ends with its script", () => {
    const html = renderViewerPage({ title: "t" });
    expect(
      html.startsWith(
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport"',
      ),
    ).toBe(true);
    expect(html.endsWith(`</main>\n<script>${viewerScript}</script>\n</body>\n</html>\n`)).toBe(true);
  });
});
