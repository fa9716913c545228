export { createConformanceChecker } from './checkExchanges';
export type { Conformance, ConformanceChecker } from './checkExchanges';
export { checkRecordings } from './checkRun';
export type { RunCheck } from './checkRun';
export type { Exchange, ExchangeResult } from './exchange';
export { startRecording } from './recorder';
export type { Recording } from './recorder';
export type { RecordedFile } from './recordings';
export { writeSuiteReports, reportDir } from './report/reportFiles';
