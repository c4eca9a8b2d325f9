import type { QuoteRefusal } from '../core/quote-check.js';

/**
 * Expected failures of the use cases. Each maps to a typed GraphQL error; anything
 * else is unexpected and masked by Yoga.
 */
export class DomainError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** An id that does not exist, or exists behind another wall: the two are indistinguishable. */
export class NotFoundError extends DomainError {
  constructor(readonly what: string, readonly id: string) {
    super('NOT_FOUND', `${what} ${id} not found`);
  }
}

/**
 * A subscription's space was dropped while it listened (a sealed space, as a whole): its last
 * answer. NOT_FOUND, as a new subscription to it now gets, in words that say why.
 */
export class SpaceDroppedError extends DomainError {
  constructor(readonly id: string) {
    super('NOT_FOUND', `Space ${id} was dropped`);
  }
}

/** The quote check's own reasons (src/core/quote-check.ts). */
export type QuoteRefusalReason = QuoteRefusal;

/** The quote check refused what the assistant handed over; nothing was written. */
export class QuoteRefusedError extends DomainError {
  constructor(readonly reason: QuoteRefusalReason, readonly detail: string) {
    super(`QUOTE_${reason}`, detail);
  }
}
/** Part of a sentence the person typed, not the whole sentence. */
export class FragmentRefusedError extends QuoteRefusedError {}
/** Nothing the person typed in this conversation says this (a paraphrase, or never said). */
export class QuoteNotFoundError extends QuoteRefusedError {}
/** Words found only in what the assistant wrote. */
export class AssistantWordsRefusedError extends QuoteRefusedError {}
export class EmptyQuoteError extends QuoteRefusedError {}
/** The quote takes in the redaction mark a forget for good left: the server's mark, not the person's words. */
export class ForgottenWordsRefusedError extends QuoteRefusedError {}

export function quoteRefusal(reason: QuoteRefusalReason, detail: string): QuoteRefusedError {
  switch (reason) {
    case 'FRAGMENT': return new FragmentRefusedError(reason, detail);
    case 'NOT_FOUND': return new QuoteNotFoundError(reason, detail);
    case 'ASSISTANT_WORDS': return new AssistantWordsRefusedError(reason, detail);
    case 'FORGOTTEN': return new ForgottenWordsRefusedError(reason, detail);
    default: return new EmptyQuoteError(reason, detail);
  }
}

export class ConfirmationRequiredError extends DomainError {
  constructor(readonly action: string) {
    super('CONFIRMATION_REQUIRED', `${action} is permanent: pass confirm: true to proceed`);
  }
}

export class InvalidInputError extends DomainError {
  constructor(readonly field: string, message: string) {
    super('INVALID_INPUT', `${field}: ${message}`);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}

export class InvalidStateError extends DomainError {
  constructor(message: string) {
    super('INVALID_STATE', message);
  }
}

/**
 * The service cannot answer now (the database connection was lost, refused or timed
 * out): nothing is known to have changed; the same request may be retried.
 */
export class UnavailableError extends DomainError {
  constructor(message: string, readonly retryAfterSeconds = 1) {
    super('UNAVAILABLE', message);
  }
}
