import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Actor, MemoryDeps, Role } from './deps.js';
import { InvalidInputError, NotFoundError } from './errors.js';

export const ROLES: readonly Role[] = ['admin', 'operator', 'chat', 'assistant'];

export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Creates a bearer token. Only its hash is stored: the secret is returned once.
 * Every role but admin is walled into one space.
 */
export async function createToken(
  deps: MemoryDeps, input: { role: Role; spaceId?: string | null; label?: string | null },
): Promise<{ id: string; secret: string; role: Role; spaceId: string | null }> {
  if (!ROLES.includes(input.role)) throw new InvalidInputError('role', `one of ${ROLES.join(', ')}`);
  const spaceId = input.spaceId ?? null;
  if (input.role !== 'admin' && !spaceId) throw new InvalidInputError('spaceId', `a ${input.role} token belongs to one space`);
  if (input.role === 'admin' && spaceId) throw new InvalidInputError('spaceId', 'an admin token is not bound to a space');
  if (spaceId) {
    const [s] = await deps.store.getSpaces([spaceId]);
    if (!s) throw new NotFoundError('Space', spaceId);
  }
  const id = randomUUID();
  const secret = `egm_${randomBytes(24).toString('base64url')}`;
  await deps.store.insertToken({ id, hash: hashToken(secret), role: input.role, spaceId, label: input.label ?? null });
  return { id, secret, role: input.role, spaceId };
}

/** The actor a bearer secret stands for, or null when unknown or revoked. */
export async function authenticate(deps: MemoryDeps, secret: string | null | undefined): Promise<Actor | null> {
  if (!secret) return null;
  const t = await deps.store.findToken(hashToken(secret.replace(/^Bearer\s+/i, '').trim()));
  return t ? { role: t.role, tokenId: t.id, spaceId: t.spaceId } : null;
}

/** What a secret made by `createToken` looks like: `egm_` and 32 base64url characters. */
const TOKEN_SHAPE = /^egm_[A-Za-z0-9_-]{32}$/;

/**
 * The actor an `Authorization` value stands for, or why there is none, in words a client
 * can act on (docs/roles.md): no token, a header without the `Bearer ` scheme (a raw token
 * is refused), a malformed token, an unknown one, or a revoked one.
 */
export async function authenticateBearer(
  deps: MemoryDeps, header: string | null | undefined,
): Promise<{ actor: Actor; problem: null; hash: string } | { actor: null; problem: string }> {
  const value = (header ?? '').trim();
  if (!value) return { actor: null, problem: 'a bearer token is required' };
  const m = /^Bearer\s+(\S+)$/i.exec(value);
  if (!m) {
    return { actor: null, problem: TOKEN_SHAPE.test(value)
      ? 'the token must be sent as "Authorization: Bearer <token>", not on its own'
      : 'the authorization header must read "Bearer <token>"' };
  }
  const secret = m[1];
  if (!TOKEN_SHAPE.test(secret)) return { actor: null, problem: 'the bearer token is malformed (expected egm_ and 32 characters)' };
  const hash = hashToken(secret);
  const t = await deps.store.findToken(hash);
  if (t) return { actor: { role: t.role, tokenId: t.id, spaceId: t.spaceId }, problem: null, hash };
  if (await deps.store.isRevokedToken(hash)) return { actor: null, problem: 'the bearer token was revoked' };
  return { actor: null, problem: 'the bearer token is not valid (unknown token)' };
}

/** On first start of an empty installation, an admin token is created so that someone can administer it. */
export async function bootstrapAdmin(deps: MemoryDeps): Promise<string | null> {
  if ((await deps.store.countTokens()) > 0) return null;
  return (await createToken(deps, { role: 'admin' })).secret;
}
