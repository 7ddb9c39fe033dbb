import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { renderTriggersPage, triggersPolicy } from "../../src/report/triggers-page.js";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

function between(html: string, open: string, close: string): string {
  const start = html.indexOf(open);
  const end = html.indexOf(close, start);
  if (start < 0 || end < 0) throw new Error(`no ${open} in the page`);
  return html.slice(start + open.length, end);
}

// The trigger review page as a string: the policy that lets its own script and style run and nothing else. What the
// script does in a browser is checked by test/create/triggers-review.e2e.test.ts.
describe("triggersPolicy", () => {
  it("allows exactly the page's own script and style, talking to its own server only", () => {
    const page = renderTriggersPage("t");
    const script = between(page, "<script>", "</script>");
    const style = between(page, "<style>", "</style>");
    expect(script).toContain('fetch("/api/triggers"');
    expect(style).toContain("border-collapse");
    expect(triggersPolicy()).toBe(
      [
        "default-src 'none'",
        `script-src ${sha256(script)}`,
        `style-src ${sha256(style)}`,
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join("; "),
    );
    expect(triggersPolicy()).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src 'sha256-[A-Za-z0-9+/]{43}='; /,
    );
  });
});

describe("renderTriggersPage", () => {
  it("escapes the title, so a file name cannot become markup", () => {
    const page = renderTriggersPage(`skillgym — /tmp/<b>"it's" & co</b>/triggers.json`);
    expect(page).toContain(
      "<title>skillgym — /tmp/&lt;b&gt;&quot;it&#39;s&quot; &amp; co&lt;/b&gt;/triggers.json</title>",
    );
    expect(page).not.toContain("<b>");
  });

  it("is a whole page with the rows table, the buttons and a status line", () => {
    const page = renderTriggersPage("review");
    expect(page.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')).toBe(true);
    expect(page).toContain('<meta name="referrer" content="no-referrer">');
    expect(page).toContain("<title>review</title>");
    expect(page).toContain('<tbody id="rows"></tbody>');
    expect(page).toContain(
      '<button type="button" id="add">Add query</button><button type="button" id="save">Save</button><span id="status" role="status"></span>',
    );
    expect(page.endsWith("</script>\n</body>\n</html>\n")).toBe(true);
    expect(page.match(/<script>/g)).toHaveLength(1);
  });
});
