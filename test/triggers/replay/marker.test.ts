import { describe, expect, it } from "vitest";
import { jsonStringContent, replayMarker, withQuery } from "../../../src/triggers/replay/marker.js";

describe("putting the query in the marker's place", () => {
  const marker = replayMarker("00ff00ff00ff00ff");
  const body = JSON.stringify({
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "<system-reminder>x</system-reminder>" },
          { type: "text", text: marker },
        ],
      },
    ],
    tools: [{ name: "Skill" }],
  });

  it("escapes the query as JSON does, so the body still parses and holds the query exactly", () => {
    const query = 'a "quoted" word,\nnew line, tab\t, backslash \\ and ünïcödé 🎉 </script>';
    const replaced = withQuery(body, marker, query);
    expect(JSON.parse(replaced).messages[0].content[1].text).toBe(query);
    expect(replaced).toBe(body.replace(marker, jsonStringContent(query)));
  });

  it("changes nothing but the marker's place", () => {
    const replaced = withQuery(body, marker, "write a haiku");
    const [before, after] = body.split(marker);
    expect(replaced).toBe(`${before}write a haiku${after}`);
  });

  it("is plain letters and digits, so no wire escapes it", () => {
    expect(replayMarker()).toMatch(/^[A-Za-z0-9]+$/);
    expect(replayMarker()).not.toBe(replayMarker());
  });
});
