import { builder } from '../builder.js';
import {
  AssistantWordsRefusedError, ConfirmationRequiredError, DomainError, EmptyQuoteError, ForbiddenError, FragmentRefusedError,
  ForgottenWordsRefusedError, InvalidInputError, InvalidStateError, NotFoundError, QuoteNotFoundError, QuoteRefusedError, UnavailableError,
} from '../../memory/errors.js';

/** Every expected failure implements `Error`; clients can always ask `... on Error { message code }`. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code'),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFound',
  description: 'No such id, or an id behind another wall: the two are indistinguishable.',
  interfaces: [ErrorInterface],
  fields: (t) => ({ what: t.exposeString('what'), id: t.exposeString('id') }),
});

builder.objectType(ForbiddenError, {
  name: 'Forbidden',
  description: 'The token is missing or its role may not perform this operation.',
  interfaces: [ErrorInterface],
});

builder.objectType(InvalidInputError, {
  name: 'InvalidInput',
  interfaces: [ErrorInterface],
  fields: (t) => ({ field: t.exposeString('field') }),
});

builder.objectType(UnavailableError, {
  name: 'Unavailable',
  description: 'The service cannot answer now (its database connection was lost, refused or timed out). Nothing is known to have changed: retry after `retryAfterSeconds`.',
  interfaces: [ErrorInterface],
  fields: (t) => ({ retryAfterSeconds: t.exposeInt('retryAfterSeconds') }),
});

builder.objectType(InvalidStateError, {
  name: 'InvalidState',
  interfaces: [ErrorInterface],
});

builder.objectType(ConfirmationRequiredError, {
  name: 'ConfirmationRequired',
  description: 'A permanent operation was asked for without confirm: true; nothing was changed.',
  interfaces: [ErrorInterface],
  fields: (t) => ({ action: t.exposeString('action') }),
});

const QuoteRefusal = builder.interfaceRef<QuoteRefusedError>('QuoteRefusal').implement({
  description: 'The quote check refused what was handed over; nothing was written.',
  interfaces: [ErrorInterface],
  fields: (t) => ({ reason: t.exposeString('reason'), detail: t.exposeString('detail') }),
});

builder.objectType(FragmentRefusedError, {
  name: 'FragmentRefused',
  description: 'Part of a sentence the person typed, not the whole sentence(s).',
  interfaces: [ErrorInterface, QuoteRefusal],
});
builder.objectType(QuoteNotFoundError, {
  name: 'QuoteNotFound',
  description: 'Nothing the person typed in this conversation says this, word for word.',
  interfaces: [ErrorInterface, QuoteRefusal],
});
builder.objectType(AssistantWordsRefusedError, {
  name: 'AssistantWordsRefused',
  description: "Words found only in the assistant's messages: never kept as the person's.",
  interfaces: [ErrorInterface, QuoteRefusal],
});
builder.objectType(ForgottenWordsRefusedError, {
  name: 'ForgottenWordsRefused',
  description: 'The quote takes in the mark `[forgotten]`, which stands where words were forgotten for good: never the person\'s words.',
  interfaces: [ErrorInterface, QuoteRefusal],
});
builder.objectType(EmptyQuoteError, {
  name: 'EmptyQuote',
  interfaces: [ErrorInterface, QuoteRefusal],
});

/** Error types every operation can return. */
export const COMMON_ERRORS = [ForbiddenError, NotFoundError, InvalidInputError, UnavailableError];
export const QUOTE_ERRORS = [FragmentRefusedError, QuoteNotFoundError, AssistantWordsRefusedError, ForgottenWordsRefusedError, EmptyQuoteError];
