/**
 * A child of test/process/quote-check-memory.test.ts: checks a quote against a long conversation
 * (argv: messages, characters each) in a process whose heap is bounded by its parent, and prints
 * the answer's reason. Every word of the quote is in every message, but not the quote: each
 * message is read whole and searched every way the check knows.
 */
import { checkQuote, type TranscriptMessage } from '../../src/core/quote-check.js';

const [messages, chars] = process.argv.slice(2).map(Number) as [number, number];
const transcript: TranscriptMessage[] = Array.from({ length: messages }, (_, i) => ({
  id: `m${i}`, role: 'USER', text: `Line ${i} here. `.repeat(Math.ceil(chars / 14)).slice(0, chars), at: new Date(i * 60_000),
}));
const r = checkQuote('Here line here.', transcript);
process.stdout.write(`${r.ok ? 'ok' : r.reason}\n`);
