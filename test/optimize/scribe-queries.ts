// The trigger queries of the "scribe" skill the optimize e2e tests improve: the should-trigger ones share no word
// with its starting description, and the sim picks skills by word overlap, so the loop has failures to work on.
export const scribeQueries = [
  { query: "draft release notes from the recent commits", should_trigger: true },
  { query: "write release notes for version two", should_trigger: true },
  { query: "summarize the commits into release notes", should_trigger: true },
  { query: "prepare release notes and a changelog for version three", should_trigger: true },
  { query: "collect the commits since the last release into notes", should_trigger: true },
  { query: "fix the failing unit test in the parser", should_trigger: false },
  { query: "rename this variable across the codebase", should_trigger: false },
  { query: "explain how the tokenizer handles unicode", should_trigger: false },
  { query: "speed up the slow database query", should_trigger: false },
];
