import type { LockInfo } from '../store/data-dir-lock.js';

/**
 * CLI commands that change a person's data while the server owns the embedded store
 * go through it: an admin GraphQL call with the admin token from `--admin-token` or
 * ENGRAM_ADMIN_TOKEN (docs/ownership.md).
 */
export async function adminGraphql<T>(holder: LockInfo, token: string, query: string, variables: Record<string, unknown>): Promise<T> {
  if (!holder.url) throw new Error(`the server (pid ${holder.pid}) has not recorded its address yet: try again in a moment`);
  const res = await fetch(holder.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json().catch(() => null)) as { data?: T; errors?: { message: string }[] } | null;
  if (!res.ok || !body || body.errors?.length || !body.data) {
    throw new Error(`the server at ${holder.url} refused: ${body?.errors?.map((e) => e.message).join('; ') ?? `HTTP ${res.status}`}`);
  }
  return body.data;
}

type Payload = { __typename: string; message?: string } & Record<string, unknown>;

function unwrap(p: Payload): Payload {
  if (p.message !== undefined && p.__typename !== 'Space' && p.__typename !== 'CreatedToken') throw new Error(`${p.__typename}: ${p.message}`);
  return p;
}

export async function createTokenThroughServer(
  holder: LockInfo, token: string, input: { role: string; spaceId: string | null; label: string | null },
): Promise<{ id: string; role: string; spaceId: string | null; secret: string }> {
  const d = await adminGraphql<{ createToken: Payload }>(holder, token,
    `mutation($role: Role!, $spaceId: ID, $label: String) { createToken(role: $role, spaceId: $spaceId, label: $label) {
       __typename ... on CreatedToken { id role spaceId secret } ... on Error { message } } }`, input);
  return unwrap(d.createToken) as never;
}

export async function createSpaceThroughServer(
  holder: LockInfo, token: string, input: { name: string; timeZone: string },
): Promise<{ id: string; name: string; timeZone: string }> {
  const d = await adminGraphql<{ createSpace: Payload }>(holder, token,
    `mutation($name: String!, $timeZone: String) { createSpace(name: $name, timeZone: $timeZone) {
       __typename ... on Space { id name timeZone } ... on Error { message } } }`, input);
  return unwrap(d.createSpace) as never;
}
