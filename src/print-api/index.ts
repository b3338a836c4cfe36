/**
 * The print-api client layer, Workers-safe: the typed client, its error, the editor-host URL builders.
 * The Node transport (`createNodeFetch`) lives in `./node-fetch.ts` so that nothing here imports undici.
 */
export {
  createPrintApi,
  type MarkShippedOptions,
  type PrintApi,
  type ReportQueryFor,
  type ReportRecordFor,
  type WaitForFilesOptions,
} from './client.ts';
export { parseContentDispositionFilename } from './content-disposition.ts';
export {
  createEditorUrls,
  type EditorColour,
  type EditorTagValue,
  type EditorUrls,
  type OnlineEditorUrlOptions,
  type ProofUrlOptions,
  type ThumbnailUrlOptions,
} from './editor-urls.ts';
export {
  isPrintApiError,
  isRetryablePrintApiError,
  PrintApiError,
  type PrintApiErrorCode,
  type PrintApiErrorDetails,
} from './error.ts';
export type { PipoApi, PipoTempUserAnswer } from './pipo.ts';
export type { PrintApiFile } from './read-answer.ts';
export { parseRetryAfter } from './retry-after.ts';
export {
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type FetchLike,
  type PrintApiOptions,
} from './transport.ts';
