export { currentAbortSignal, withAbortSignal, withoutAbortSignal } from './abort.js';
export { answerLost, type BatchItemResult, type BatchRequest, BATCH_SIZE } from './batch.js';
export { chunk, mapLimit } from './concurrency.js';
export { type RedactedRequest, WordPressError } from './errors.js';
export { decodeEntities, plainText } from './html-text.js';
export { inSteps, type Steps, stepBudget, stepOptions } from './in-steps.js';
export {
  type ClientStats,
  type CollectionWindow,
  type CurrentUser,
  type Query,
  type RestIndex,
  WordPressClient,
  type WordPressClientOptions,
  type WpRequest,
  type WpResponse,
} from './wordpress-client.js';
