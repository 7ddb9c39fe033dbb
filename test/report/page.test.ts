import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  embeddableJson,
  renderViewerPage,
  viewerPolicy,
  viewerScript,
} from "../../src/report/page/page-html.js";
import type { StaticViewData } from "../../src/report/view-model.js";

const data: StaticViewData = {
  key: "k",
  workspace: { skill_name: "</title><script>x()</script>", path: "/w", shown: [], iterations: [] },
  iterations: {},
  runs: {},
  tunes: { workspace: false, tunes: [] },
  catalogs: { catalogs: [] },
};

describe("the viewer page", () => {
  it("has a script that parses and never closes its own <script> element", () => {
    expect(() => new Function(viewerScript)).not.toThrow();
    expect(viewerScript).not.toMatch(/<\/script/i);
    expect(viewerScript).not.toMatch(/\.innerHTML|insertAdjacentHTML|outerHTML|document\.write/);
  });

  it("allows exactly its own inline script by hash", () => {
    const hash = createHash("sha256").update(viewerScript).digest("base64");
    expect(viewerPolicy("server")).toContain(`script-src 'sha256-${hash}'`);
    expect(viewerPolicy("static")).toContain("connect-src 'none'");
    const html = renderViewerPage({ title: "t", data });
    expect(html).toContain(`<script>${viewerScript}</script>`);
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
  });

  it("embeds data with every < escaped, so it cannot end its script element", () => {
    const text = embeddableJson({ a: "</script><!-- \u2028", b: ["<"] });
    expect(text).not.toContain("<");
    expect(text).not.toContain("\u2028");
    expect(JSON.parse(text)).toEqual({ a: "</script><!-- \u2028", b: ["<"] });
    const html = renderViewerPage({ title: "<b>t</b>", data });
    expect(html).toContain("<title>&lt;b&gt;t&lt;/b&gt;</title>");
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain("\\u003c/title>\\u003cscript>x()\\u003c/script>");
  });

  it("without data, reads from the server and carries no policy meta", () => {
    const html = renderViewerPage({ title: "t" });
    expect(html).not.toContain('id="skillgym-data"');
    expect(html).not.toContain("http-equiv");
  });
});
