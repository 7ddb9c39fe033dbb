import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Finding } from "../../src/findings.js";
import { loadSkill } from "../../src/skill/index.js";
import { GOOD_DESCRIPTION, skillMd, type TempRoot, tempRoot } from "./skill-folder.js";

let temp: TempRoot;
beforeEach(async () => {
  temp = await tempRoot();
});
afterEach(() => temp.cleanup());

async function findingsFor(frontmatter: string, body: string, extra: Record<string, string> = {}) {
  const dir = await temp.skill("pdf", { "SKILL.md": skillMd(frontmatter, body), ...extra });
  return (await loadSkill(dir)).findings;
}

const brief = (f: Finding) => [f.code, f.location, f.message];
const pdf = `name: pdf\ndescription: ${GOOD_DESCRIPTION}`;

describe("file names in prose and backticks", () => {
  it("flags a name whose case differs from the file, wherever it is written", async () => {
    const body = [
      "For advanced features, see REFERENCE.md.",
      "To fill a form, read `FORMS.md` first.",
      "Details are in [the forms guide](Forms.md).",
      "Run scripts/Fill.py on it.",
      "",
    ].join("\n");
    const findings = await findingsFor(pdf, body, {
      "reference.md": "# Ref\n",
      "forms.md": "# Forms\n",
      "scripts/fill.py": "",
    });
    expect(findings.map(brief)).toEqual([
      [
        "reference-case-mismatch",
        "line 5",
        "`REFERENCE.md` is `reference.md` in the skill folder: found on macOS and Windows, missing on Linux",
      ],
      ["reference-case-mismatch", "line 6", expect.stringContaining("`FORMS.md` is `forms.md`")],
      ["reference-case-mismatch", "line 7", expect.stringContaining("`Forms.md` is `forms.md`")],
      [
        "reference-case-mismatch",
        "line 8",
        expect.stringContaining("`scripts/Fill.py` is `scripts/fill.py`"),
      ],
    ]);
    expect(findings[0]?.hint).toBe("write `reference.md`, or rename the file to match");
  });

  it("leaves alone names that exist, the user's own files, URLs, code and links into the suite", async () => {
    const body = [
      "Read reference.md, then edit the user's `package.json` and write `report.md`.",
      "Call `foo.bar()` or `os.path.join`; this runs on Node.js and reads https://example.com/REFERENCE.md.",
      "Examples are in [the suite](evals/evals.json) and `evals/files/sample.pdf`.",
      "Mail help@example.com about FORMS.txt.",
      "",
    ].join("\n");
    expect(await findingsFor(pdf, body, { "reference.md": "", "forms.md": "" })).toEqual([]);
  });

  it("still reports a missing bundled path named in prose", async () => {
    const findings = await findingsFor(pdf, "Run scripts/missing.py first.\n");
    expect(findings.map((f) => f.code)).toEqual(["missing-reference"]);
  });
});

describe("when to use, only judged on English text", () => {
  it.each([
    ["French", "Génère des rapports PDF pour les équipes commerciales."],
    ["Spanish", "Genera informes de ventas para el equipo a partir de los datos."],
    ["German", "Erstellt Berichte für das Team mit den Daten."],
    ["Chinese", "生成销售报告和图表。"],
    ["Japanese", "PDFファイルからテキストを抽出します。"],
  ])("%s descriptions get no when-to-use warning", async (_language, description) => {
    expect(await findingsFor(`name: pdf\ndescription: ${description}`, "Do it.\n")).toEqual([]);
  });

  it("an English description without a trigger still gets the warning", async () => {
    const findings = await findingsFor(
      "name: pdf\ndescription: A toolkit for the PDF files of a team.",
      "Do it.\n",
    );
    expect(findings.map((f) => f.code)).toEqual(["description-no-when"]);
  });
});
