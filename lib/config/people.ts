import type { SettingsReader } from '../settings/read-settings';
import type { SettingValues } from '../settings/setting';
import { type Person, REPEATED_CREDENTIAL, repeatedCredentials } from './credentials';
import type { peopleArea } from './people-settings';
import { credentialsOf, type Tenant } from './tenants';

/** Identity tokens from one OpenID Connect issuer (docs/deployment.md#reviewers-and-operators). */
export interface OidcSettings {
  issuer: string;
  audience: string;
  jwksUrl: string;
  tenantClaim: string;
  rolesClaim: string;
}

export interface People {
  operators: Person[];
  oidc?: OidcSettings;
}

/**
 * The people settings as one value, with the checks that span settings: an operator token that is also a tenant's
 * key or reviewer token, and an OIDC configuration given only in part.
 */
export function peopleOf(values: SettingValues<typeof peopleArea.settings>, tenants: Tenant[] | undefined, reader: SettingsReader): People {
  const operators = values.operators ?? [];
  const credentials = [
    ...credentialsOf(tenants ?? []),
    ...operators.map((operator, index) => ({ label: `SLOWLANE_OPERATORS[${index}]`, sha256: operator.tokenSha256 })),
  ];
  for (const { label, earlier } of repeatedCredentials(credentials)) {
    reader.report(`${label} is the same credential as ${earlier}; ${REPEATED_CREDENTIAL}`);
  }
  const { oidcIssuer: issuer, oidcAudience: audience, oidcJwksUrl: jwksUrl } = values;
  const given = { OIDC_ISSUER: issuer, OIDC_AUDIENCE: audience, OIDC_JWKS_URL: jwksUrl };
  const missing = Object.entries(given).filter(([, value]) => value === undefined).map(([name]) => name);
  if (missing.length > 0 && missing.length < 3) {
    reader.report(`${missing.join(' and ')} must be set too: OIDC sign-in needs OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL`);
  }
  if (issuer === undefined || audience === undefined || jwksUrl === undefined) return { operators };
  return { operators, oidc: { issuer, audience, jwksUrl, tenantClaim: values.oidcTenantClaim, rolesClaim: values.oidcRolesClaim } };
}
