export { type CiReportOptions, writeCiReports } from "./ci-report.js";
export { annotations, type GateVerdict, stepSummary } from "./github.js";
export { junitXml } from "./junit.js";
export { escapeXml } from "./xml.js";
