/**
 * The use cases (and the rules they read) that the resolvers call, as one module the schema
 * imports at the first call rather than at start: their rules load wink-nlp with its English
 * model and wink-lemmatizer's word list (~0.3 s of a start, ~75 MB), which the server's first
 * answers (spaces, tokens, conversations, lists) do not need (docs/operations.md#start).
 * `src/graphql/lazy-use-cases.ts` loads it; nothing else should import it statically.
 */
export { remember } from '../memory/remember.js';
export { correct } from '../memory/correct.js';
export { infer, reviewInference } from '../memory/inferences.js';
export { changeStatus, forget, markErroneous } from '../memory/statuses.js';
export { createSpace, dropSealedSpace } from '../memory/spaces.js';
export { recall } from '../memory/recall.js';
export { cleanUp } from '../memory/cleanup.js';
export { consolidate, duplicateClusters, unmerge } from '../memory/consolidate.js';
export { resolveMemory, setSpaceTimeZone } from '../memory/resolve.js';
export { deriveEntities } from '../core/derive.js';
export { deriveThemes } from '../core/themes.js';
