import { relative, sep } from "node:path";
import { byBrowsingOrder, listOutputFiles, type OutputPath, readHead } from "../runlog/output-files.js";
import { contentTypeOf, kindFromName, looksLikeText } from "./file-kinds.js";
import type { OutputView } from "./view-model.js";

export interface OutputLimits {
  /** Text shown inline per file; the rest is behind the download link. */
  maxTextBytes: number;
  /** Files listed per run. */
  maxFiles: number;
  /** In a static file: the largest image or download embedded as a data: URL. */
  maxEmbedBytes: number;
  /** Of a run's transcript.md, shown per run; the rest is left out with a note. */
  maxTranscriptBytes: number;
}

export const defaultLimits: OutputLimits = {
  maxTextBytes: 200_000,
  maxFiles: 200,
  maxEmbedBytes: 2_000_000,
  maxTranscriptBytes: 256_000,
};

export interface OutputSource {
  /** The URL the page fetches a file from, given its path under the workspace root; absent to embed files instead. */
  urlFor?: (pathFromRoot: string) => string;
  root: string;
  limits?: Partial<OutputLimits>;
}

function dataUrl(type: string, bytes: Buffer): string {
  return `data:${type};base64,${bytes.toString("base64")}`;
}

async function describe(found: OutputPath, source: OutputSource, limits: OutputLimits): Promise<OutputView> {
  const fromRoot = relative(source.root, found.absolute).split(sep).join("/");
  const named = kindFromName(found.path);
  // A name never says "binary": only the bytes do.
  const textual = named !== "image";
  const { head, size } = await readHead(found.absolute, textual ? Math.max(limits.maxTextBytes, 8192) : 0);
  const kind = named ?? (looksLikeText(head.subarray(0, 8192)) ? "text" : "binary");
  const file: OutputView = { path: found.path, size, kind };
  if (kind !== "image" && kind !== "binary") {
    const shown = head.subarray(0, limits.maxTextBytes);
    file.text = new TextDecoder("utf-8").decode(shown);
    if (size > shown.length) file.truncated = true;
  }
  if (source.urlFor) file.url = source.urlFor(fromRoot);
  else if ((kind === "image" || kind === "binary") && size <= limits.maxEmbedBytes) {
    // A binary file's name has no image type: it would have been named an image.
    const type = contentTypeOf(found.path) ?? "application/octet-stream";
    file.url = dataUrl(type, (await readHead(found.absolute, size)).head);
  }
  return file;
}

/** The files a run produced (its outputs/ folder, without metrics.json), each with what the page needs to show it. */
export async function readOutputs(
  outputsDir: string,
  source: OutputSource,
): Promise<{ files: OutputView[]; omitted: number }> {
  const limits = { ...defaultLimits, ...source.limits };
  const all = (await listOutputFiles(outputsDir)).sort(byBrowsingOrder);
  const found = all.slice(0, limits.maxFiles);
  const files = await Promise.all(found.map((f) => describe(f, source, limits).catch(() => undefined)));
  return { files: files.filter((f): f is OutputView => f !== undefined), omitted: all.length - found.length };
}
