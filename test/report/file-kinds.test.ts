import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentTypeOf, kindFromName, looksLikeText } from "../../src/report/file-kinds.js";
import { readOutputs } from "../../src/report/output-files.js";
import { tempDir, writeFiles } from "./workspace-fixture.js";

describe("kindFromName", () => {
  it.each([
    ["notes.md", "markdown"],
    ["NOTES.MD", "markdown"],
    ["a.markdown", "markdown"],
    ["page.mdx", "markdown"],
    ["data.json", "json"],
    ["photo.JPEG", "image"],
    ["icon.svg", "image"],
    ["main.ts", "code"],
    ["rows.jsonl", "code"],
    ["log.txt", "text"],
    ["table.csv", "text"],
    ["Makefile", "text"],
    ["sub/dir/LICENSE", "text"],
    ["readme", "text"],
    ["xMakefile", undefined],
    ["Makefile.bak", undefined],
    ["Makefilex", undefined],
    ["CHANGELOG", "text"],
    ["tool", undefined],
    ["archive.zip", undefined],
  ])("%s is %s", (name, kind) => {
    expect(kindFromName(name)).toBe(kind);
  });
});

describe("looksLikeText", () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);

  it("is text for UTF-8, even cut inside a character", () => {
    expect(looksLikeText(Buffer.from("plain été"))).toBe(true);
    expect(looksLikeText(bytes(0x61, 0xc3))).toBe(true);
    expect(looksLikeText(bytes(0x61, 0xe2, 0x82))).toBe(true);
    expect(looksLikeText(bytes(0x61, 0xf0, 0x9f, 0x98))).toBe(true);
    expect(looksLikeText(bytes(0xc3))).toBe(true);
    expect(looksLikeText(bytes())).toBe(true);
  });

  it("is binary with a NUL or bytes that are not UTF-8", () => {
    expect(looksLikeText(bytes(0x61, 0x00, 0x62))).toBe(false);
    expect(looksLikeText(bytes(0x61, 0xff, 0x62))).toBe(false);
    expect(looksLikeText(bytes(0x61, 0x80))).toBe(false);
    expect(looksLikeText(bytes(0x61, 0x80, 0x80, 0x80))).toBe(false);
    // A whole "€" and a stray continuation byte: a character is at most four bytes, so this one is not cut short.
    expect(looksLikeText(bytes(0xe2, 0x82, 0xac, 0x80))).toBe(false);
    expect(looksLikeText(bytes(0xc3, 0x61))).toBe(false);
    // A stray continuation byte after ASCII is not a character cut short, whatever came before.
    expect(looksLikeText(bytes(0xc3, 0x61, 0x80))).toBe(false);
  });
});

describe("contentTypeOf", () => {
  it("types images by extension, in any case, and nothing else", () => {
    expect(contentTypeOf("a/b.SVG")).toBe("image/svg+xml");
    expect(contentTypeOf("b.jpg")).toBe("image/jpeg");
    expect(contentTypeOf("b.txt")).toBeUndefined();
  });
});

describe("readOutputs, exactly", () => {
  let ws: Awaited<ReturnType<typeof tempDir>>;
  const outs = () => join(ws.dir, "run", "outputs");

  beforeAll(async () => {
    ws = await tempDir();
    await writeFiles(outs(), {
      "a.txt": "0123456789",
      "b.svg": "<svg/>",
      "c.bin": Buffer.from([0x00, 0x01, 0x02]),
      "d.md": "",
      "e.dat": Buffer.from("words without a known extension"),
    });
  });
  afterAll(() => ws.cleanup());

  it("shows text up to the limit, marks it cut, and embeds images and binaries as data: URLs", async () => {
    const { files, omitted } = await readOutputs(outs(), { root: ws.dir, limits: { maxTextBytes: 4 } });
    expect(omitted).toBe(0);
    expect(files).toEqual([
      { path: "a.txt", size: 10, kind: "text", text: "0123", truncated: true },
      {
        path: "b.svg",
        size: 6,
        kind: "image",
        url: `data:image/svg+xml;base64,${Buffer.from("<svg/>").toString("base64")}`,
      },
      { path: "c.bin", size: 3, kind: "binary", url: "data:application/octet-stream;base64,AAEC" },
      { path: "d.md", size: 0, kind: "markdown", text: "" },
      { path: "e.dat", size: 31, kind: "text", text: "word", truncated: true },
    ]);
  });

  it("shows text of exactly the limit whole, and embeds nothing over the embed limit", async () => {
    const { files } = await readOutputs(outs(), {
      root: ws.dir,
      limits: { maxTextBytes: 10, maxEmbedBytes: 3 },
    });
    expect(files[0]).toEqual({ path: "a.txt", size: 10, kind: "text", text: "0123456789" });
    expect(files[1]).toEqual({ path: "b.svg", size: 6, kind: "image" });
    expect(files[2]?.url).toBe("data:application/octet-stream;base64,AAEC");
  });

  it("links every file by its path from the root when served", async () => {
    const { files } = await readOutputs(outs(), {
      root: ws.dir,
      urlFor: (p) => `/f?${p}`,
      limits: { maxFiles: 2 },
    });
    expect(files.map((f) => f.url)).toEqual(["/f?run/outputs/a.txt", "/f?run/outputs/b.svg"]);
  });
});
