import { writeFileSync } from 'node:fs';
import { printSDL } from '../src/graphql/schema/index.js';

/** Writes schema.graphql from the Pothos builder (a test fails when the committed file differs). */
writeFileSync(new URL('../schema.graphql', import.meta.url), printSDL());
process.stdout.write('schema.graphql written\n');
