/**
 * The simulated model's notion of a theme: the first row whose keywords appear in a ticket's subject or body.
 * Deterministic, so tests can count the themes of a generated day themselves and hold the digest to them.
 */
export const THEME_KEYWORDS: ReadonlyArray<{ theme: string; keywords: readonly string[] }> = [
  { theme: 'billing', keywords: ['invoice', 'charged', 'charge', 'refund', 'payment', 'billing', 'subscription'] },
  { theme: 'login', keywords: ['password', 'log in', 'login', 'sign in', '2fa', 'locked out'] },
  { theme: 'shipping', keywords: ['delivery', 'shipping', 'parcel', 'package', 'tracking', 'courier'] },
  { theme: 'outage', keywords: ['outage', 'is down', 'unavailable', 'cannot reach'] },
  { theme: 'bug', keywords: ['error', 'crash', 'bug', 'broken', 'not working'] },
  { theme: 'feature request', keywords: ['feature', 'would like', 'suggestion', 'please add'] },
];

export const FALLBACK_THEME = 'other';

export function themeOf(subject: string, body: string): string {
  const text = `${subject} ${body}`.toLowerCase();
  return THEME_KEYWORDS.find((row) => row.keywords.some((keyword) => text.includes(keyword)))?.theme ?? FALLBACK_THEME;
}
