export { type DiffOptions, diffIterations } from "./diff-iterations.js";
export { regressionLines, renderDiffMarkdown } from "./render-markdown.js";
export { writeDiff } from "./write-diff.js";
