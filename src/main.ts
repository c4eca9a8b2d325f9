import { buildApp } from './app.js';
import { configFromEnv } from './config.js';

const config = configFromEnv();
const app = await buildApp(config);
const { url, adminToken } = await app.start();
process.stdout.write(`Engram is running: the memory page at ${url.replace(/graphql$/, '')}, GraphiQL at ${url}\n`);
if (adminToken) {
  process.stdout.write(`First start: an admin token was created. It is shown once, keep it:\n  ${adminToken}\n` +
    `Use it as "Authorization: Bearer <token>" (in GraphiQL: the Headers tab). The memory page takes an\n` +
    `operator token of a space (createToken(role: operator, spaceId: ...)), or this one to choose a space.\n`);
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    void app.stop().finally(() => process.exit(0));
  });
}
