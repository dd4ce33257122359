import { Type } from '@sinclair/typebox';
import { json, jsonPath } from '../settings/json-setting';
import { setting, type SettingsArea } from '../settings/setting';
import { text, url } from '../settings/setting-types';
import { type Person, personProblems, personSchema, REPEATED_CREDENTIAL, repeatedCredentials, toPerson } from './credentials';

const operatorsType = json(Type.Array(personSchema), {
  description: 'array of {id, token} or {id, tokenSha256}; tokens ≥ 32 random characters, none repeated',
  secret: true,
  check: (operators) => [
    ...personProblems(operators, []),
    ...repeatedCredentials(operators.map((operator, index) => ({ label: jsonPath([index]), sha256: toPerson(operator).tokenSha256 }))).map(
      ({ label, earlier }) => ({ path: label, message: `has the same token as ${earlier}; ${REPEATED_CREDENTIAL}` }),
    ),
  ],
  map: (operators): Person[] => operators.map(toPerson),
});

/**
 * Who the people acting on jobs are (docs/deployment.md#reviewers-and-operators): reviewers sign in with a token
 * of their own (listed with their tenant in SLOWLANE_TENANTS) or an OIDC identity token, operators likewise. The
 * identity is what decisions and replays record, never a name the request gives.
 */
export const peopleArea = {
  title: 'Reviewers and operators',
  settings: {
    operators: setting({
      env: 'SLOWLANE_OPERATORS',
      type: operatorsType,
      defaultDoc: 'none: without operators (or OIDC) `/admin/*` refuses everyone',
      doc: 'the operators allowed on `/admin/*`, each with a token of their own; the id is recorded with what they do',
    }),
    oidcIssuer: setting({
      env: 'OIDC_ISSUER',
      // Kept exactly as written: the `iss` claim must equal it, trailing slash and all.
      type: text(),
      doc: 'identity tokens (JWT) from this issuer are accepted for reviewers and operators; set with `OIDC_AUDIENCE` and `OIDC_JWKS_URL`',
    }),
    oidcAudience: setting({
      env: 'OIDC_AUDIENCE',
      type: text(),
      doc: "the `aud` an identity token must carry (this deployment's client id)",
    }),
    oidcJwksUrl: setting({
      env: 'OIDC_JWKS_URL',
      type: url(),
      doc: "the issuer's signing keys (JWKS); tokens signed by any other key are refused",
    }),
    oidcTenantClaim: setting({
      env: 'OIDC_TENANT_CLAIM',
      type: text(),
      default: 'slowlane_tenant',
      doc: "the claim naming the reviewer's tenant (one tenant id)",
    }),
    oidcRolesClaim: setting({
      env: 'OIDC_ROLES_CLAIM',
      type: text(),
      default: 'slowlane_roles',
      doc: 'the claim listing what the person may do: `reviewer`, `operator` or both; the `sub` claim is the identity recorded',
    }),
  },
} satisfies SettingsArea;
