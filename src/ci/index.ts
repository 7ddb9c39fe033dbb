export { type CiReportOptions, writeCiReports } from "./ci-report.js";
export { annotations, type GateVerdict, stepSummary } from "./github.js";
export { type JunitAgentPart, junitXml, junitXmlForAgents } from "./junit.js";
export { escapeXml } from "./xml.js";
