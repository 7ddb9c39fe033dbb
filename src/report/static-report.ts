import { join } from "node:path";
import { writeStaticViewer } from "./static-viewer.js";

/** Writes `<iteration>/report.html`: the viewer over this one iteration, as a single self-contained file. */
export async function writeStaticReport(iterationDir: string, skillName: string): Promise<string> {
  return writeStaticViewer(iterationDir, join(iterationDir, "report.html"), {
    title: `skillgym report — ${skillName}`,
  });
}
