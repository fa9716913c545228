export { checkExchanges } from './checkExchanges';
export type { Conformance } from './checkExchanges';
export type { Exchange, ExchangeResult } from './exchange';
export { startRecording } from './recorder';
export type { Recording } from './recorder';
export { writeSuiteReport, reportDir } from './report/reportFiles';
