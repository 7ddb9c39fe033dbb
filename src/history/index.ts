export { type HistoryOptions, recordRunHistory } from "./record-run-history.js";
