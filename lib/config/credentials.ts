import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { jsonPath } from '../settings/json-setting';
import { weakSecretReason } from '../settings/secret-strength';
import type { Problem } from '../settings/setting';

/**
 * A person who signs in with a token of their own: a reviewer of one tenant, or an operator. The config holds the
 * token itself or only its SHA-256, so a deployment can keep the tokens out of its environment altogether.
 */
export interface Person {
  id: string;
  /** Hex SHA-256 of the token; the only form kept after start. */
  tokenSha256: string;
}

/** Hex SHA-256 of a bearer token: what a token is looked up and compared by. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The ids are recorded with every decision and shown in the job, so they are readable: a name or an e-mail. */
export const personSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$' }),
    token: Type.Optional(Type.String({ minLength: 1 })),
    tokenSha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
  },
  { additionalProperties: false },
);

export interface PersonEntry {
  id: string;
  token?: string | undefined;
  tokenSha256?: string | undefined;
}

/** Each person has exactly one credential, a strong one, and an id no one else in the list has. */
export function personProblems(people: readonly PersonEntry[], at: ReadonlyArray<string | number>): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  people.forEach((person, index) => {
    const path = [...at, index];
    if ((person.token === undefined) === (person.tokenSha256 === undefined)) {
      problems.push({ path: jsonPath(path), message: 'must have exactly one of token and tokenSha256' });
    }
    const weak = person.token === undefined ? undefined : weakSecretReason(person.token);
    if (weak) problems.push({ path: jsonPath([...path, 'token']), message: weak });
    if (seen.has(person.id)) problems.push({ path: jsonPath([...path, 'id']), message: `repeats the id "${person.id}"` });
    seen.add(person.id);
  });
  return problems;
}

export function toPerson(entry: PersonEntry): Person {
  return { id: entry.id, tokenSha256: entry.tokenSha256 ?? tokenDigest(entry.token ?? '') };
}

/** A credential and where it was configured (`SLOWLANE_TENANTS[0].apiKey`), for the duplicate check. */
export interface LabelledCredential {
  label: string;
  sha256: string;
}

/**
 * Two callers with one credential cannot be told apart (a tenant key that is also an operator token would open
 * every tenant's jobs to that tenant): every repeat is named with the place it repeats.
 */
export function repeatedCredentials(credentials: readonly LabelledCredential[]): Array<{ label: string; earlier: string }> {
  const first = new Map<string, string>();
  const repeats: Array<{ label: string; earlier: string }> = [];
  for (const { label, sha256 } of credentials) {
    const earlier = first.get(sha256);
    if (earlier === undefined) first.set(sha256, label);
    else repeats.push({ label, earlier });
  }
  return repeats;
}

export const REPEATED_CREDENTIAL = 'every API key and token must be different';
